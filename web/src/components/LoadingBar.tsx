// A thin indeterminate bar across the top while the app waits (SPEC §1: until the server is ready).
import { Progress } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The stripes move this many times a second, not at every frame: the bar shows while a signed-in page waits for its
 * devices, and a frame-by-frame animation makes the browser paint and composite the whole page 60 times a second
 * meanwhile. In headless Chromium without a GPU that alone kept more than one of this machine's two cores busy
 * (session 14, bench/results/map.md); eight steps still read as movement.
 */
export const LOADING_BAR_STEPS = 8;

/**
 * The bar shows at once and its stripes start moving after this long: a wait under a second needs no motion to
 * read as "working", and each step is a frame the browser draws while the page is still loading (with 10,000
 * devices a bar without motion reached the first map 300 ms sooner here, session 15, bench/results/map.md).
 */
export const LOADING_BAR_STILL_MS = 1000;

export function LoadingBar({ visible = true }: { visible?: boolean }) {
  const { t } = useTranslation('common');
  if (!visible) return null;
  return (
    <Progress
      value={100}
      animated
      striped
      size={3}
      radius={0}
      aria-label={t('loading')}
      data-testid="loading-bar"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1000 }}
      styles={{
        section: {
          animationTimingFunction: `steps(${LOADING_BAR_STEPS})`,
          animationDelay: `${LOADING_BAR_STILL_MS}ms`,
        },
      }}
    />
  );
}
