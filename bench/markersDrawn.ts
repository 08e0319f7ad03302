// "All markers drawn", as bench/map.ts and bench/first-map-ab.ts time it: the map's source holds every device with
// a position, then two frames have passed (the frame that shows them). Checked in the page at every frame: polling
// from here every 100 ms added 0–100 ms plus a round trip to each load's figure (session 13).
import type { Page } from '@playwright/test';

interface MapHook {
  __rastroMap?: { featureCount(): number };
}

export async function markersDrawn(page: Page, expected: number, timeoutMs: number): Promise<void> {
  try {
    await page.waitForFunction(
      (n) => ((window as unknown as MapHook).__rastroMap?.featureCount() ?? 0) >= n,
      expected,
      { polling: 'raf', timeout: timeoutMs },
    );
  } catch {
    const drawn = await page
      .evaluate(() => (window as unknown as MapHook).__rastroMap?.featureCount() ?? 0)
      .catch(() => -1);
    throw new Error(
      `only ${drawn} of ${expected} markers drawn after ${timeoutMs / 1000} s at ${page.url()}`,
    );
  }
  await page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );
}
