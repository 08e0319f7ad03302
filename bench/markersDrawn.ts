// "All markers drawn", as bench/map.ts and bench/first-map-ab.ts time it: the device markers MapLibre has drawn on
// screen (symbols, plus the devices inside each drawn cluster) cover the fleet, then one more frame has passed.
// Checked in the page at every frame: polling from here every 100 ms added 0–100 ms plus a round trip to each load's
// figure (session 13).
//
// Until session 22 this ended once the map's source had been handed every device (controller.featureCount) and two
// frames had passed ("markersFed" below): MapLibre's worker had not yet cut the source into tiles then, so at 100
// devices no marker was on screen yet at that moment (rendered device features 0; they came 2–3 s later on a loaded
// machine). Both are timed now; the target is the drawn one.
import type { Page } from '@playwright/test';

interface MapHook {
  __rastroMap?: {
    featureCount(): number;
    /** Since session 23 the map draws nothing until it can show the vehicles: placed is not yet drawn. */
    firstFrameDrawn?(): boolean;
    map: {
      getLayer(id: string): unknown;
      queryRenderedFeatures(o: { layers: string[] }): {
        id?: string | number;
        layer: { id: string };
        properties: Record<string, unknown>;
      }[];
    };
  };
}

/** Share of the fleet that must be on screen: a device may drive out of the first view meanwhile. */
const ON_SCREEN_SHARE = 0.95;

const frame = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );

async function failure(page: Page, what: string, expected: number, timeoutMs: number): Promise<Error> {
  // which condition held it back: the source, the first frame, or markers on screen (symbols and clusters' counts)
  const state = await page
    .evaluate(() => {
      const hook = (window as unknown as MapHook).__rastroMap;
      if (!hook) return 'no map';
      const layers = ['rastro-devices-symbol', 'rastro-clusters'].filter((l) => hook.map.getLayer(l));
      let onScreen = 0;
      for (const f of hook.map.queryRenderedFeatures({ layers }))
        onScreen += typeof f.properties.point_count === 'number' ? f.properties.point_count : 1;
      const first = hook.firstFrameDrawn?.();
      return `${hook.featureCount()} in the map's source, first frame drawn ${String(first)}, ~${onScreen} on screen`;
    })
    .catch(() => 'page unreachable');
  return new Error(
    `markers not ${what} after ${timeoutMs / 1000} s at ${page.url()} (${expected} expected): ${state}`,
  );
}

/** The map's source holds every device with a position, then two frames have passed (the figure until session 22). */
export async function markersFed(page: Page, expected: number, timeoutMs: number): Promise<void> {
  try {
    await page.waitForFunction(
      (n) => ((window as unknown as MapHook).__rastroMap?.featureCount() ?? 0) >= n,
      expected,
      { polling: 'raf', timeout: timeoutMs },
    );
  } catch {
    throw await failure(page, 'fed', expected, timeoutMs);
  }
  await frame(page);
}

/** MapLibre has drawn the markers of (nearly) every device with a position. */
export async function markersDrawn(page: Page, expected: number, timeoutMs: number): Promise<void> {
  try {
    await page.waitForFunction(
      ([n, share]) => {
        const hook = (window as unknown as MapHook).__rastroMap;
        if (!hook || hook.featureCount() < n || hook.firstFrameDrawn?.() === false) return false;
        const layers = ['rastro-devices-symbol', 'rastro-clusters'].filter((l) => hook.map.getLayer(l));
        const seen = new Set<string>();
        let onScreen = 0;
        for (const f of hook.map.queryRenderedFeatures({ layers })) {
          const cluster = f.properties.cluster_id;
          const key = cluster !== undefined ? `c${String(cluster)}` : `d${String(f.id ?? f.properties.id)}`;
          if (seen.has(key)) continue; // a symbol near a tile's edge is found in both tiles
          seen.add(key);
          onScreen += typeof f.properties.point_count === 'number' ? f.properties.point_count : 1;
        }
        if (onScreen < n * share) return false;
        // bench/glWaves.ts: its counts until now, when it is loaded
        (window as unknown as { __glWaves?: { snap(): void } }).__glWaves?.snap();
        // for bench/first-map-profile.ts's timeline
        performance.mark('markers-drawn');
        return true;
      },
      [expected, ON_SCREEN_SHARE] as const,
      { polling: 'raf', timeout: timeoutMs },
    );
  } catch {
    throw await failure(page, 'drawn', expected, timeoutMs);
  }
  await frame(page);
}
