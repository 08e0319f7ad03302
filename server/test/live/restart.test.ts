// Server start resets every device status (shown "offline") while keeping positions and the latest position id
// (CONTRACT §7); the status sweep is what turns silent devices "unknown".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { getLive } from '../../src/live/ingest.ts';
import { storeEnv } from '../helpers/store.ts';
import { first as firstRow, insert } from '../support/testSql.ts';

const dir = mkdtempSync(join(tmpdir(), 'rastro-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = async () =>
  loadConfig(
    { DATA_DIR: dir, SIM_DEVICES: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent', ...(await storeEnv(dir)) },
    { host: '127.0.0.1', port: 0, logLevel: 'silent', simDevices: 0, osmandPort: 0 },
  );

describe('restart', () => {
  it('resets statuses to null on start; positions and positionId survive', async () => {
    const first = await buildApp(await config());
    await first.app.ready();
    const db = first.ctx.store.sql;
    const id = Number(await insert(db, 'devices', { name: 'R', uniqueId: 'restart-1' }));
    getLive(first.ctx).invalidate();
    const r = await getLive(first.ctx).ingest({
      uniqueId: 'restart-1',
      protocol: 'osmand',
      fixTime: new Date(),
      latitude: 1,
      longitude: 2,
    });
    expect(r.ok).toBe(true);
    const positionId = r.ok ? r.position.id : 0;
    expect(await firstRow(db, 'devices', { id }, { columns: ['status'] })).toEqual({ status: 'online' });
    await first.app.close();

    const second = await buildApp(await config());
    await second.app.ready();
    const row = await firstRow(
      second.ctx.store.sql,
      'devices',
      { id },
      { columns: ['status', 'positionId'] },
    );
    expect(row).toEqual({ status: null, positionId });
    const live = getLive(second.ctx);
    await live.cache.freshAsync(); // deviceJson reads the cache as it is (issue #30, session 35)
    expect(live.deviceJson(id)?.status).toBe('offline');
    expect(await live.latestPositionAsync(id)).toMatchObject({ id: positionId, latitude: 1, longitude: 2 });
    await second.app.close();
  });
});
