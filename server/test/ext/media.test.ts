import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { registerEdge } from '../../src/edge.ts';
import { registerMedia } from '../../src/ext/media.ts';
import { loadConfig } from '../../src/config.ts';
import { ApiError } from '../../src/errors.ts';
import type { AppContext } from '../../src/context.ts';

let app: FastifyInstance;
const dataDir = mkdtempSync(join(tmpdir(), 'rastro-media-'));

beforeAll(async () => {
  app = Fastify();
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiError) return reply.status(err.status).send(err.body);
    return reply.status(500).send('x');
  });
  const config = loadConfig({ DATA_DIR: dataDir });
  const ctx = { config, log: app.log, bus: new EventEmitter(), onClose: [] } as unknown as AppContext;
  registerEdge(app, ctx); // the edge parses the routes' params (issue #27)
  await registerMedia(app, ctx);
  mkdirSync(join(dataDir, 'images', 'drivers'), { recursive: true });
  writeFileSync(join(dataDir, 'images', '7.png'), 'png7');
  writeFileSync(join(dataDir, 'images', 'drivers', '3.png'), 'drv3');
});
afterAll(() => app.close());

describe('media (SPEC §7 static assets)', () => {
  it('serves the 24 distinct sounds as WAV', async () => {
    const bodies = new Set<string>();
    for (let i = 1; i <= 24; i++) {
      const r = await app.inject(`/rastro/assets/custom/sounds/audio${i}.wav`);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('audio/wav');
      expect(r.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
      expect(r.rawPayload.subarray(8, 12).toString()).toBe('WAVE');
      bodies.add(r.rawPayload.toString('base64'));
    }
    expect(bodies.size).toBe(24);
  });

  it('rejects other sound names with a 400 text, missing files 404', async () => {
    const r = await app.inject('/rastro/assets/custom/sounds/audio25.wav');
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('audio1.wav');
    expect((await app.inject('/rastro/assets/custom/sounds/..%2F..%2Fmedia.ts')).statusCode).toBe(400);
  });

  it('serves category pictures (the five preloaded ones included) as PNG', async () => {
    for (const c of ['default', 'car', 'truck', 'motorcycle', 'bus', 'helicopter']) {
      const r = await app.inject(`/rastro/assets/images/categories/${c}.png`);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/png');
      expect(r.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
    expect((await app.inject('/rastro/assets/images/categories/rocket.png')).statusCode).toBe(404);
  });
});
