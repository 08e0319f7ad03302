// The map's WebGL context made while a person types on the sign-in page (issue #31, timed from Enter): creating a
// page's WebGL context waits for the GPU process to make it (on SwiftShader a few hundred ms of MapLibre's
// _setupPainter and first getExtension, inside the React commit that creates the map, after Enter), and its first
// shader compile starts the shader compiler. main.tsx calls warmWebGl at the first key on /login
// (web/src/typingStart.ts): a canvas gets a context with the attributes MapLibre asks for and links one program;
// MapView then hands that canvas to MapLibre (withWarmCanvas), whose getContext returns the context made.

const VERTEX = '#version 300 es\nin vec2 p;void main(){gl_Position=vec4(p,0.0,1.0);}';
const FRAGMENT = '#version 300 es\nprecision mediump float;out vec4 c;void main(){c=vec4(1.0);}';

let warmed: HTMLCanvasElement | null = null;

/**
 * The map's size in the signed-in shell as measured in session 25 (the header 52 px high; on a desktop the side
 * rail 51 px wide): MapLibre sets its canvas's size before anything else, and a size other than the context's
 * makes the GPU process allocate the drawing buffer again (as long as making a context), so the warmed canvas is
 * made at that size. A wrong guess costs that allocation, as a map without a warmed canvas pays it. In CSS
 * pixels, with the side rail's width (`left`): features/map/earlyMap.ts places its hidden map there.
 */
export function mapCssSize(): { left: number; width: number; height: number } {
  const rail = window.innerWidth > 768 ? 51 : 0;
  return {
    left: rail,
    width: Math.max(1, window.innerWidth - rail),
    height: Math.max(1, window.innerHeight - 52),
  };
}

/** mapCssSize in device pixels: the canvas's drawing buffer. */
function mapSize(): [number, number] {
  const ratio = window.devicePixelRatio || 1;
  const { width, height } = mapCssSize();
  return [Math.round(ratio * width), Math.round(ratio * height)];
}

/** A canvas with MapLibre's WebGL2 context made and one program linked, kept for the map (withWarmCanvas). */
export function warmWebGl(): void {
  try {
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = mapSize();
    // MapLibre's attributes (Map._setupPainter with the default canvasContextAttributes)
    const gl = canvas.getContext('webgl2', {
      antialias: false,
      alpha: true,
      depth: true,
      stencil: true,
      premultipliedAlpha: true,
      powerPreference: 'high-performance',
      preserveDrawingBuffer: false,
      failIfMajorPerformanceCaveat: false,
      desynchronized: false,
    });
    if (!gl) return;
    // what MapLibre's Context asks first (webgl/context.ts): the first extension asked waits for the GPU process's
    // list of them, and an extension once enabled is handed out again without asking
    gl.getExtension('EXT_texture_filter_anisotropic');
    gl.getExtension('EXT_color_buffer_half_float');
    gl.getExtension('EXT_color_buffer_float');
    gl.getParameter(gl.MAX_TEXTURE_SIZE);
    const program = gl.createProgram();
    const shaders = [
      [gl.VERTEX_SHADER, VERTEX],
      [gl.FRAGMENT_SHADER, FRAGMENT],
    ].map(([type, source]) => {
      const shader = gl.createShader(type as number)!;
      gl.shaderSource(shader, source as string);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
      return shader;
    });
    gl.linkProgram(program);
    // reading the result waits for the link in the GPU process, which is the point
    gl.getProgramParameter(program, gl.LINK_STATUS);
    for (const shader of shaders) gl.deleteShader(shader);
    gl.deleteProgram(program);
    warmed = canvas;
  } catch {
    // no WebGL here: the map says so itself
  }
}

/**
 * Runs `create` (MapLibre's Map constructor) with the warmed canvas, if there is one, given as the first canvas it
 * creates (maplibre-gl's DOM.create, its only canvas); then document.createElement is the browser's own again.
 */
export function withWarmCanvas<T>(create: () => T): T {
  const canvas = warmed;
  warmed = null;
  if (!canvas) return create();
  const own = Document.prototype.createElement;
  let given = false;
  document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    if (!given && tag === 'canvas') {
      given = true;
      return canvas;
    }
    return own.call(this, tag, options);
  } as typeof document.createElement;
  try {
    return create();
  } finally {
    Reflect.deleteProperty(document, 'createElement');
  }
}
