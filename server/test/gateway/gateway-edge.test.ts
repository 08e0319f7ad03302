// Issue #27 in gateway mode: the proxy's permission gate reads the command type as the device would get it
// (domain normalizeCommandType), so a padded, tabbed or upper-case engineStop needs devices.lock there too, and an
// edit that makes a plain geofence an anchor needs anchor.lock (the stored geofence asked upstream). The upstream is
// a *basic* embedded server, which enforces no bits itself: what reaches it is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, permissionIndex, setPermissionBit } from '@rastro/domain';
import { startGatewayPair, type GatewayPair } from '../helpers/gateway.ts';
import { api, createDevice, createObject, createUser, expectStatus, link } from '../helpers/index.ts';
import { count as countRows, first, type Table, type Where } from '../support/testSql.ts';

let pair: GatewayPair;
const count = async (table: Table, where: Where = {}) =>
  await countRows(pair.upstream.ctx.store.sql, table, where);

async function gatewayLogin(email: string, password: string): Promise<string> {
  const res = await fetch(`${pair.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

const without = (...bits: number[]) =>
  bits.reduce((s, bit) => setPermissionBit(s, bit, false), ALL_PERMISSIONS);

beforeAll(async () => {
  pair = await startGatewayPair('rastro-gw-edge-', { edition: 'basic' });
  const t = pair.upstream;
  const server = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
  const attributes = { ...(server.attributes as object), 'rastro.enableAdvancedPerms': true };
  expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
});
afterAll(async () => pair?.close());

describe('gateway: the gate reads the normalised request', () => {
  it('padded, tabbed and upper-case engineStop/engineResume without devices.lock/unlock ⇒ 403, nothing queued', async () => {
    const perms = without(permissionIndex('devices', 'lock')!, permissionIndex('devices', 'unlock')!);
    const u = await createUser(pair.upstream, { attributes: { 'rastro.advancedPerms': perms } });
    const device = await createDevice(pair.upstream);
    await link(pair.upstream, { userId: u.id, deviceId: device.id });
    const cookie = await gatewayLogin(u.email, u.password);
    for (const type of [' engineStop ', 'engineStop\t', 'ENGINESTOP', ' engineResume', 'ENGINERESUME\t']) {
      const res = await fetch(`${pair.url}/api/commands/send`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 0, deviceId: device.id, type, attributes: {} }),
      });
      expect(res.status, type).toBe(403);
    }
    expect(await count('queued_commands', { deviceId: device.id })).toBe(0);
  });

  it('a PUT that makes a plain geofence an anchor needs anchor.lock through the proxy', async () => {
    const perms = without(permissionIndex('anchor', 'lock')!, permissionIndex('anchor', 'unlock')!);
    const u = await createUser(pair.upstream, { attributes: { 'rastro.advancedPerms': perms } });
    const g = await createObject(pair.upstream, 'geofences', {
      name: 'Plain gw',
      area: 'CIRCLE (1 1, 100)',
      attributes: {},
    });
    await link(pair.upstream, { userId: u.id, geofenceId: g.id });
    const cookie = await gatewayLogin(u.email, u.password);
    const res = await fetch(`${pair.url}/api/geofences/${g.id}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ ...g, attributes: { isAnchor: true } }),
    });
    expect(res.status).toBe(403);
    const stored = (await first(
      pair.upstream.ctx.store.sql,
      'geofences',
      { id: g.id },
      { columns: ['attributes'] },
    )) as {
      attributes: string;
    };
    expect(JSON.parse(stored.attributes)).not.toHaveProperty('isAnchor');
  });
});
