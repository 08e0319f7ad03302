import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { fakeFetch, json, renderWithProviders } from '../components/testing.tsx';
import { SLIDE_MS } from './brand.ts';
import { LoginBackground } from './LoginBackground.tsx';

const originalMatchMedia = window.matchMedia;
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.matchMedia = originalMatchMedia;
});

const slides = ['/rastro/assets/custom/images/slide1-a.png', '/s2.png', '/s3.png'];
const withLogin = (login: Record<string, unknown>) =>
  vi.stubGlobal('fetch', fakeFetch(() => json({ login })).fn);
const active = () => screen.getAllByTestId('login-slide').findIndex((el) => el.hasAttribute('data-active'));

describe('LoginBackground', () => {
  it('a slider shows its 3 images and moves to the next one every SLIDE_MS', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    withLogin({ background: 'slider', slides });
    renderWithProviders(
      <LoginBackground>
        <p>form</p>
      </LoginBackground>,
    );
    await waitFor(() => expect(screen.getAllByTestId('login-slide')).toHaveLength(3));
    expect(screen.getByTestId('login-background').dataset.kind).toBe('slider');
    expect(screen.getAllByTestId('login-slide')[0].style.backgroundImage).toContain(slides[0]);
    expect(screen.getByText('form')).toBeTruthy();
    expect(active()).toBe(0);
    act(() => vi.advanceTimersByTime(SLIDE_MS));
    expect(active()).toBe(1);
    act(() => vi.advanceTimersByTime(2 * SLIDE_MS));
    expect(active()).toBe(0);
  });

  it('with prefers-reduced-motion the slider stays on its first image', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    window.matchMedia = ((query: string) => ({
      matches: query.includes('prefers-reduced-motion'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
    withLogin({ background: 'slider', slides });
    renderWithProviders(<LoginBackground>x</LoginBackground>);
    await waitFor(() => expect(screen.getAllByTestId('login-slide')).toHaveLength(3));
    act(() => vi.advanceTimersByTime(3 * SLIDE_MS));
    expect(active()).toBe(0);
  });

  it('a colour background paints the colour; an animated one has no slides', async () => {
    withLogin({ background: 'color', color: '#123456' });
    renderWithProviders(<LoginBackground>x</LoginBackground>);
    await waitFor(() =>
      expect(screen.getByTestId('login-background').style.background).toBe('rgb(18, 52, 86)'),
    );
    cleanup();
    withLogin({ background: 'animated', gradient: ['#000000', '#ffffff'] });
    renderWithProviders(<LoginBackground>x</LoginBackground>);
    await waitFor(() => expect(screen.getByTestId('login-background').dataset.kind).toBe('animated'));
    expect(screen.queryAllByTestId('login-slide')).toHaveLength(0);
  });
});
