// The devices with queued commands are read from the store on the pool when the server starts (issue #30, session
// 35, H30z: live/liveCommands.ts readQueuedDevices, awaited by registerLive before anything is served): a command
// queued before a restart is delivered on the device's first report after it, on both stores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { getLive } from '../../src/live/ingest.ts';
import { dropStore, storeEnv } from '../helpers/store.ts';
import { insert } from '../support/testSql.ts';

const dir = mkdtempSync(join(tmpdir(), 'rastro-queued-restart-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropStore(dir);
});

const config = async () =>
  loadConfig(
    { DATA_DIR: dir, SIM_DEVICES: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent', ...(await storeEnv(dir)) },
    { host: '127.0.0.1', port: 0, logLevel: 'silent', simDevices: 0, osmandPort: 0 },
  );

describe('queued commands across a restart', () => {
  it('a command queued before the restart is delivered on the first report after it', async () => {
    const first = await buildApp(await config());
    await first.app.ready();
    const id = Number(
      await insert(first.ctx.store.sql, 'devices', { name: 'Q', uniqueId: 'queued-restart-1' }),
    );
    getLive(first.ctx).invalidate();
    const queued = await getLive(first.ctx).queueCommand(id, {
      type: 'custom',
      textChannel: false,
      attributes: { data: 'after restart' },
    });
    await first.app.close();

    const second = await buildApp(await config());
    await second.app.ready();
    try {
      const r = await getLive(second.ctx).ingest({
        uniqueId: 'queued-restart-1',
        protocol: 'osmand',
        fixTime: new Date(),
        latitude: 1,
        longitude: 2,
      });
      expect(r.ok && r.commands.map((c) => c.id)).toEqual([queued.id]);
    } finally {
      await second.app.close();
    }
  });
});
