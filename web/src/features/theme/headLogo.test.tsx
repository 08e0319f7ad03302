// The theme's logo fields as the shared HeadLogo (branding/) shows them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { Server } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { HeadLogo } from '../../branding/index.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useSession.setState({ server: null });
});

const config = {
  headLogo: { image: true, text: 'Acme', url: '/rastro/assets/custom/images/logo-a1b2c3.png' },
  logoWidth: 40,
  login: { logo: '/rastro/assets/custom/images/loginLogo-d4e5f6.png' },
};

describe('HeadLogo with a theme', () => {
  it("takes the theme's logo width unless the server attribute {ns}.logoWidth is set", async () => {
    useSession.setState({ ns: 'rastro', server: { attributes: {} } as unknown as Server });
    vi.stubGlobal('fetch', fakeFetch(() => json(config)).fn);
    renderWithProviders(<HeadLogo />);
    await waitFor(() => expect(screen.getByTestId('head-logo').tagName).toBe('IMG'));
    const img = screen.getByTestId('head-logo') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(config.headLogo.url);
    expect(img.style.width).toBe('40%');
    cleanup();
    useSession.setState({ server: { attributes: { 'rastro.logoWidth': 70 } } as unknown as Server });
    renderWithProviders(<HeadLogo />);
    await waitFor(() =>
      expect((screen.getByTestId('head-logo') as HTMLImageElement).style.width).toBe('70%'),
    );
  });

  it('the login screen (size lg) shows the login logo', async () => {
    vi.stubGlobal('fetch', fakeFetch(() => json(config)).fn);
    renderWithProviders(<HeadLogo size="lg" />);
    await waitFor(() => expect(screen.getByTestId('head-logo').getAttribute('src')).toBe(config.login.logo));
  });
});
