// Less noisy indicators of a first map than its wall time (issue #31, session 23): how many animation frames
// linked WebGL programs ("waves": each waits for the GPU process, SwiftShader here, before the frame goes on), how
// many programs were linked, and how many frames cleared a WebGL canvas (MapLibre clears once per frame it draws)
// until the markers were drawn. An init script wraps the WebGL calls and counts animation frames with its own
// requestAnimationFrame loop: every call made inside one frame's callbacks gets that frame's number.
import type { Page } from '@playwright/test';

export const GL_WAVES_SCRIPT = `(() => {
  let frame = 0;
  const tick = () => { frame++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const s = { links: 0, linkFrames: new Set(), clearFrames: new Set() };
  // markersDrawn calls it once the markers are drawn: the counts until then
  s.snap = () => { s.at ??= { waves: s.linkFrames.size, links: s.links, frames: s.clearFrames.size }; };
  window.__glWaves = s;
  for (const C of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    if (!C) continue;
    const link = C.prototype.linkProgram;
    C.prototype.linkProgram = function (p) { s.links++; s.linkFrames.add(frame); return link.call(this, p); };
    const clear = C.prototype.clear;
    C.prototype.clear = function (bits) {
      if (bits & 0x4000) s.clearFrames.add(frame);
      return clear.call(this, bits);
    };
  }
})();`;

export interface GlWaves {
  /** Frames in which at least one program was linked. */
  waves: number;
  links: number;
  /** Frames in which a WebGL canvas was cleared (frames the map drew). */
  frames: number;
}

interface Counts {
  links: number;
  linkFrames: Set<number>;
  clearFrames: Set<number>;
  at?: GlWaves;
}

/** The counts at the moment the markers were found drawn (or so far, when that was not recorded). */
export function readGlWaves(page: Page): Promise<GlWaves> {
  return page.evaluate(() => {
    const s = (window as unknown as { __glWaves: Counts }).__glWaves;
    return s.at ?? { waves: s.linkFrames.size, links: s.links, frames: s.clearFrames.size };
  });
}
