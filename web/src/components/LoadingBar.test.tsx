// The loading bar (SPEC §1): shown while the app waits, labelled, its stripes stepping instead of moving every frame,
// and only once the wait has lasted a second.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from './testing.tsx';
import { LOADING_BAR_STEPS, LOADING_BAR_STILL_MS, LoadingBar } from './LoadingBar.tsx';

describe('LoadingBar', () => {
  afterEach(cleanup);

  it('is a labelled progress bar whose stripes move in steps, not at every frame', () => {
    renderWithProviders(<LoadingBar />);
    const bar = screen.getByTestId('loading-bar');
    // one progress bar for assistive technology, named (Mantine puts the role on the bar's section)
    expect(screen.getByRole('progressbar', { name: 'Carregando…' })).toBeTruthy();
    const section = bar.querySelector<HTMLElement>('[data-animated]');
    expect(section).not.toBeNull();
    expect(section!.style.animationTimingFunction).toBe(`steps(${LOADING_BAR_STEPS})`);
    expect(LOADING_BAR_STEPS).toBeLessThanOrEqual(10);
  });

  it('shows at once and starts moving only when the wait lasts a second', () => {
    renderWithProviders(<LoadingBar />);
    const section = screen.getByTestId('loading-bar').querySelector<HTMLElement>('[data-animated]');
    expect(section!.style.animationDelay).toBe('1000ms');
    expect(LOADING_BAR_STILL_MS).toBe(1000);
  });

  it('shows nothing once the app is loaded', () => {
    renderWithProviders(<LoadingBar visible={false} />);
    expect(screen.queryByTestId('loading-bar')).toBeNull();
  });
});
