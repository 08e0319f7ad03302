import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmWebGl, withWarmCanvas } from './warmGl.ts';

/** A WebGL2 context that records what is asked of it (jsdom has none). */
function fakeGl(calls: string[]) {
  const record =
    (name: string, result: unknown = {}) =>
    (...args: unknown[]) => {
      calls.push(`${name}${typeof args[0] === 'string' ? ` ${args[0]}` : ''}`);
      return result;
    };
  return {
    VERTEX_SHADER: 1,
    FRAGMENT_SHADER: 2,
    LINK_STATUS: 3,
    MAX_TEXTURE_SIZE: 4,
    getExtension: record('getExtension', null),
    getParameter: record('getParameter', 4096),
    createProgram: record('createProgram'),
    createShader: record('createShader'),
    shaderSource: record('shaderSource'),
    compileShader: record('compileShader'),
    attachShader: record('attachShader'),
    linkProgram: record('linkProgram'),
    getProgramParameter: record('getProgramParameter', true),
    deleteShader: record('deleteShader'),
    deleteProgram: record('deleteProgram'),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('the WebGL context made while typing (issue #31)', () => {
  it("is made with MapLibre's attributes at the map's size, links a program, and becomes the map's canvas once", () => {
    const calls: string[] = [];
    const contexts: { canvas: HTMLCanvasElement; type: string; attributes: unknown }[] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (
      this: HTMLCanvasElement,
      type: string,
      attributes?: unknown,
    ) {
      contexts.push({ canvas: this, type, attributes });
      return fakeGl(calls) as unknown as RenderingContext;
    } as unknown as HTMLCanvasElement['getContext']);
    warmWebGl();
    expect(contexts).toHaveLength(1);
    expect(contexts[0].type).toBe('webgl2');
    expect(contexts[0].attributes).toMatchObject({
      alpha: true,
      depth: true,
      stencil: true,
      antialias: false,
    });
    // jsdom's window is 1024 × 768: a desktop shell (side rail 51 px, header 52 px)
    expect([contexts[0].canvas.width, contexts[0].canvas.height]).toEqual([1024 - 51, 768 - 52]);
    expect(calls).toContain('getExtension EXT_color_buffer_float');
    expect(calls).toContain('linkProgram');
    expect(calls).toContain('getProgramParameter');

    const [made, other, div] = withWarmCanvas(() => [
      document.createElement('canvas'),
      document.createElement('canvas'),
      document.createElement('div'),
    ]);
    expect(made).toBe(contexts[0].canvas);
    expect(other).not.toBe(made);
    expect(div.tagName).toBe('DIV');
    // the browser's own createElement again, and the canvas is given once
    expect(Object.prototype.hasOwnProperty.call(document, 'createElement')).toBe(false);
    expect(withWarmCanvas(() => document.createElement('canvas'))).not.toBe(made);
  });

  it('without a warmed canvas (a signed-in page opened directly) the map makes its own', () => {
    const canvas = withWarmCanvas(() => document.createElement('canvas'));
    expect(canvas.tagName).toBe('CANVAS');
    expect(Object.prototype.hasOwnProperty.call(document, 'createElement')).toBe(false);
  });
});
