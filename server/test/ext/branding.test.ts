import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { registerBranding } from '../../src/ext/branding.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';

let app: FastifyInstance;
const dataDir = mkdtempSync(join(tmpdir(), 'rastro-branding-'));
const custom = join(dataDir, 'custom', 'config.json');

beforeAll(async () => {
  app = Fastify();
  const config = loadConfig({ DATA_DIR: dataDir, RASTRO_NS: 'acme' });
  // no users here: the reseller-domain lookup (resellers.ts) finds none
  const none = () => ({ reader: true, all: () => [], get: () => undefined });
  const store = { sql: { dialect: 'sqlite', prepare: none, prepareNative: none } };
  const ctx = { config, log: app.log, bus: new EventEmitter(), onClose: [], store } as unknown as AppContext;
  await registerBranding(app, ctx);
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = () => app.inject({ method: 'GET', url: '/acme/assets/custom/config.json' });

describe('GET /{ns}/assets/custom/config.json', () => {
  it('serves the shipped default under the configured namespace', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json();
    expect(body.title).toBe('Rastro');
    expect(body.headLogo).toEqual({ image: false, text: 'Rastro', url: '' });
    expect(body.push).toEqual({ enabled: false, vapidPublicKey: '' });
    for (const k of ['whatsapp', 'androidApp', 'appleApp', 'dataPolicy']) expect(body[k]).toBe('');
    expect((await app.inject({ method: 'GET', url: '/rastro/assets/custom/config.json' })).statusCode).toBe(
      404,
    );
  });

  it('lets DATA_DIR/custom/config.json override fields, merging nested objects, without a restart', async () => {
    mkdirSync(join(dataDir, 'custom'), { recursive: true });
    writeFileSync(
      custom,
      JSON.stringify({
        title: 'Frota Acme',
        headLogo: { image: true, url: '/acme/logo.png' },
        whatsapp: 'https://wa.me/5511999999999',
        push: { enabled: true, vapidPublicKey: 'BPk' },
      }),
    );
    const body = (await get()).json();
    expect(body.title).toBe('Frota Acme');
    expect(body.headLogo).toEqual({ image: true, text: 'Rastro', url: '/acme/logo.png' });
    expect(body.whatsapp).toBe('https://wa.me/5511999999999');
    expect(body.push).toEqual({ enabled: true, vapidPublicKey: 'BPk' });
    expect(body.androidApp).toBe('');
  });

  it('falls back to the default when the override is broken JSON or has wrong types', async () => {
    writeFileSync(custom, '{ not json');
    expect((await get()).json().title).toBe('Rastro');
    writeFileSync(custom, JSON.stringify({ title: 42 }));
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Rastro');
  });
});
