// Gateway mode: the /api proxy evaluates the advanced permission bits before forwarding (docs/permissions.md).
// The upstream here is a *basic* embedded server, which enforces no bits itself: whatever it refuses, the gateway
// refused; whatever reaches it is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  NO_PERMISSIONS,
  permissionIndex,
  permissionStringFromBits,
  setPermissionBit,
} from '@rastro/domain';
import { startGatewayPair, type GatewayPair } from '../helpers/gateway.ts';
import { api, createDevice, createUser, expectStatus, link } from '../helpers/index.ts';
import { count as countRows, type Table, type Where } from '../support/testSql.ts';

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

/** An upstream user with this permission string and one linked device, signed in through the gateway. */
async function userWith(
  perms: string,
): Promise<{ cookie: string; device: { id: number } & Record<string, unknown> }> {
  const u = await createUser(pair.upstream, { attributes: { 'rastro.advancedPerms': perms } });
  const device = await createDevice(pair.upstream);
  await link(pair.upstream, { userId: u.id, deviceId: device.id });
  return { cookie: await gatewayLogin(u.email, u.password), device };
}

const lock = permissionIndex('devices', 'lock')!;

beforeAll(async () => {
  pair = await startGatewayPair('rastro-gw-perms-', { edition: 'basic' });
  const t = pair.upstream;
  const server = expectStatus<Record<string, unknown>>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
  const attributes = { ...(server.attributes as object), 'rastro.enableAdvancedPerms': true };
  expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
});
afterAll(async () => pair?.close());

describe('gateway: the proxy refuses a bit-off call before it reaches upstream', () => {
  it('engineStop with devices.lock off ⇒ 403 from the gateway, nothing queued upstream', async () => {
    const { cookie, device } = await userWith(setPermissionBit(ALL_PERMISSIONS, lock, false));
    const res = await fetch(`${pair.url}/api/commands/send`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'accept-language': 'en-US' },
      body: JSON.stringify({ id: 0, deviceId: device.id, type: 'engineStop', attributes: {} }),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('SecurityException: Permission denied: block / enable (devices)');
    expect(await count('queued_commands', { deviceId: device.id })).toBe(0);
  });

  it('engineStop with only devices.lock on passes, and the buffered body reaches upstream intact', async () => {
    const { cookie, device } = await userWith(permissionStringFromBits([lock]));
    const res = await fetch(`${pair.url}/api/commands/send`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 0, deviceId: device.id, type: 'engineStop', attributes: {} }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { type: string }).type).toBe('engineStop');
    expect(await count('queued_commands', { deviceId: device.id })).toBe(1);
  });

  it('an engineStop padded past what the check reads (1 MB) is refused with 413, not checked as a plain command', async () => {
    const command = permissionIndex('devices', 'command')!;
    const { cookie, device } = await userWith(permissionStringFromBits([command]));
    const res = await fetch(`${pair.url}/api/commands/send`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 0,
        deviceId: device.id,
        type: 'engineStop',
        attributes: { pad: 'x'.repeat(1024 * 1024 + 10) },
      }),
    });
    expect(res.status).toBe(413);
    expect(await count('queued_commands', { deviceId: device.id })).toBe(0);
  });

  it('a rename with 32 zeros ⇒ 403, the upstream device keeps its name', async () => {
    const { cookie, device } = await userWith(NO_PERMISSIONS);
    const res = await fetch(`${pair.url}/api/devices/${device.id}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ ...device, name: 'Renamed' }),
    });
    expect(res.status).toBe(403);
    expect(await count('devices', { id: device.id, name: device.name as string })).toBe(1);
  });

  it('an anchor needs anchor.lock, not geofences.create, through the proxy too', async () => {
    const { cookie, device } = await userWith(permissionStringFromBits([permissionIndex('anchor', 'lock')!]));
    const post = (attributes: Record<string, unknown>) =>
      fetch(`${pair.url}/api/geofences`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Anchor gw', area: 'CIRCLE (-23.55 -46.63, 150)', attributes }),
      });
    expect((await post({})).status).toBe(403);
    expect(await count('geofences', { name: 'Anchor gw' })).toBe(0);
    expect((await post({ deviceId: device.id, isAnchor: true })).status).toBe(200);
    expect(await count('geofences', { name: 'Anchor gw' })).toBe(1);
  });

  it('calls of no area still pass (the map: GET /api/devices)', async () => {
    const { cookie } = await userWith(NO_PERMISSIONS);
    expect((await fetch(`${pair.url}/api/devices`, { headers: { cookie } })).status).toBe(200);
  });
});
