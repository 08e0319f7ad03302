import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { Server } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../components/testing.tsx';
import { useSession } from '../stores/session.ts';
import { fetchBranding, HeadLogo, logoWidthPercent } from './index.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('branding (SPEC §1)', () => {
  it('reads /{ns}/assets/custom/config.json and fills missing fields with defaults', async () => {
    const f = fakeFetch(() => json({ title: 'Acme', headLogo: { image: true, url: '/x.png' } }));
    vi.stubGlobal('fetch', f.fn);
    const b = await fetchBranding();
    expect(f.calls[0].url).toBe('/rastro/assets/custom/config.json');
    expect(b.title).toBe('Acme');
    expect(b.headLogo).toEqual({ image: true, text: 'Rastro', url: '/x.png' });
    expect(b.push).toEqual({ enabled: false, vapidPublicKey: '' });
  });

  it('{ns}.logoWidth is a percentage between 1 and 100', () => {
    expect(logoWidthPercent(40)).toBe(40);
    expect(logoWidthPercent('75')).toBe(75);
    expect(logoWidthPercent(0)).toBeNull();
    expect(logoWidthPercent(150)).toBeNull();
    expect(logoWidthPercent('abc')).toBeNull();
  });

  it('HeadLogo shows the image sized by the server attribute, or the text', async () => {
    useSession.setState({
      ns: 'rastro',
      server: { attributes: { 'rastro.logoWidth': 60 } } as unknown as Server,
    });
    vi.stubGlobal(
      'fetch',
      fakeFetch(() => json({ headLogo: { image: true, url: '/logo.png', text: 'Acme' } })).fn,
    );
    renderWithProviders(<HeadLogo />);
    await waitFor(() => expect(screen.getByTestId('head-logo').tagName).toBe('IMG'));
    const img = screen.getByTestId('head-logo') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/logo.png');
    expect(img.style.width).toBe('60%');
    cleanup();
    vi.stubGlobal('fetch', fakeFetch(() => json({ headLogo: { image: false, text: 'Frota X' } })).fn);
    renderWithProviders(<HeadLogo />);
    await waitFor(() => expect(screen.getByTestId('head-logo').textContent).toBe('Frota X'));
  });
});
