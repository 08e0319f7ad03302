import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { ThemeDialog } from './ThemeDialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const branding = {
  title: 'Frota Acme',
  headLogo: { image: false, text: 'ACME', url: '' },
  colors: { primary: '#228be6', header: '', menu: '', loginPanel: '' },
  login: { background: 'color', color: '#f1f3f5', image: '', slides: [], gradient: ['#000000', '#ffffff'] },
  push: { enabled: false, vapidPublicKey: '' },
};

function server(
  upload: () => Response = () => json({ url: '/rastro/assets/custom/images/logo-abc123.png' }),
) {
  const puts: unknown[] = [];
  let configReads = 0;
  const f = fakeFetch((url, init) => {
    if (url.endsWith('/assets/custom/config.json')) {
      configReads++;
      return json(branding);
    }
    if (url.endsWith('/rastro/theme') && init.method === 'PUT') {
      puts.push(JSON.parse(String(init.body)));
      return json(branding);
    }
    if (url.includes('/rastro/theme/images/') && init.method === 'POST') return upload();
    return text('not found', 404);
  });
  vi.stubGlobal('fetch', f.fn);
  return { puts, f, configReads: () => configReads };
}

const open = async () => {
  const onClose = vi.fn();
  renderWithProviders(<ThemeDialog onClose={onClose} props={{}} />);
  await waitFor(() =>
    expect((screen.getByTestId('theme-title') as HTMLInputElement).value).toBe('Frota Acme'),
  );
  return onClose;
};
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });

describe('ThemeDialog', () => {
  it('starts from the current branding and saves the edited theme, then re-reads the branding', async () => {
    const s = server();
    const onClose = await open();
    expect((screen.getByTestId('theme-logo-text') as HTMLInputElement).value).toBe('ACME');
    fireEvent.change(screen.getByTestId('theme-title'), { target: { value: 'Frota Nova' } });
    fireEvent.click(screen.getByTestId('theme-tab-colors'));
    const primary = await screen.findByTestId('theme-color-primary');
    fireEvent.change(primary, { target: { value: '#e8590c' } });
    fireEvent.click(screen.getByTestId('theme-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(s.puts).toHaveLength(1);
    expect(s.puts[0]).toMatchObject({
      title: 'Frota Nova',
      headLogo: { image: false, text: 'ACME', url: '' },
      colors: { primary: '#e8590c', header: '', menu: '', loginPanel: '' },
      login: { background: 'color', color: '#f1f3f5', slides: [] },
    });
    await waitFor(() => expect(s.configReads()).toBeGreaterThanOrEqual(2));
    expect(await screen.findByText('Tema salvo')).toBeTruthy();
  });

  it('a slider without images is refused on its tab with the message, nothing is sent', async () => {
    const s = server();
    await open();
    fireEvent.click(screen.getByTestId('theme-tab-login'));
    fireEvent.click(await screen.findByText('Slider'));
    expect(await screen.findByText('Até 3 imagens que se alternam; recomendado 1600x900')).toBeTruthy();
    fireEvent.click(screen.getByTestId('theme-tab-links'));
    fireEvent.change(await screen.findByTestId('theme-whatsapp'), {
      target: { value: 'javascript:alert(1)' },
    });
    fireEvent.click(screen.getByTestId('theme-save'));
    expect(await screen.findByText('Use um endereço http(s) ou um caminho iniciado por /')).toBeTruthy();
    expect(screen.getByTestId('theme-errors').textContent).toBe('Corrija os campos destacados');
    fireEvent.change(screen.getByTestId('theme-whatsapp'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('theme-save'));
    expect((await screen.findByTestId('theme-slides-error')).textContent).toBe(
      'Envie pelo menos uma imagem para o slider',
    );
    expect(s.puts).toHaveLength(0);
  });

  it('uploads a logo (raw body) and previews it; a too large image says so', async () => {
    const s = server();
    await open();
    fireEvent.change(fileInput(), { target: { files: [png()] } });
    const preview = (await screen.findByTestId('theme-logo-preview')) as HTMLImageElement;
    expect(preview.getAttribute('src')).toBe('/rastro/assets/custom/images/logo-abc123.png');
    const post = s.f.calls.find((c) => c.init.method === 'POST');
    expect(post?.url).toBe('/rastro/theme/images/logo');
    expect(post?.init.body).toBeInstanceOf(File);
    expect((post?.init.headers as Record<string, string>)['Content-Type']).toBe('image/png');
    cleanup();

    server(() => text('WebApplicationException: Image larger than 2000000 bytes', 413));
    await open();
    fireEvent.change(fileInput(), { target: { files: [png()] } });
    expect(await screen.findByText('Imagem maior que 2 MB')).toBeTruthy();
  });
});
