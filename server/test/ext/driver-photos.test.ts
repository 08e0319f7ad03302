// Driver photos (server/src/ext/deviceImages.ts): POST/DELETE /{ns}/drivers/{id}/image, served at
// /{ns}/assets/images/drivers/{id}.png, the imageUpdated stamp, and the refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, expectStatus, link, makeTestApp, type TestApp } from '../helpers/index.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('driver photos', () => {
  let t: TestApp;
  let driverId: number;
  beforeAll(async () => {
    t = await makeTestApp();
    driverId = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/drivers', {
        name: 'Ana',
        uniqueId: 'photo-ana',
        attributes: {},
      }),
      200,
    ).id;
  });
  afterAll(async () => t.close());

  const upload = (cookie: string, body: Buffer, type = 'image/png', id = driverId) =>
    t.app.inject({
      method: 'POST',
      url: `/rastro/drivers/${id}/image`,
      headers: { cookie, 'content-type': type },
      payload: body,
    });

  it('uploads, serves with a new imageUpdated stamp, and deletes', async () => {
    const res = await upload(t.admin, PNG);
    const stamp = expectStatus<{ imageUpdated: number }>(res, 200).imageUpdated;
    expect(stamp).toBeGreaterThan(0);
    const driver = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', `/api/drivers/${driverId}`),
      200,
    );
    expect(driver.attributes.imageUpdated).toBe(stamp);
    const served = await t.app.inject({
      method: 'GET',
      url: `/rastro/assets/images/drivers/${driverId}.png`,
      headers: { cookie: t.admin },
    });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);

    expect((await api(t.app, t.admin, 'DELETE', `/rastro/drivers/${driverId}/image`)).statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: `/rastro/assets/images/drivers/${driverId}.png`,
      headers: { cookie: t.admin },
    });
    expect(after.statusCode).toBe(404);
    const gone = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', `/api/drivers/${driverId}`),
      200,
    );
    expect(gone.attributes.imageUpdated).toBeUndefined();
  });

  it('refuses a fake image, a wrong type, a foreign driver and a read-only user', async () => {
    expect((await upload(t.admin, Buffer.from('not a png'))).statusCode).toBe(400);
    expect((await upload(t.admin, PNG, 'text/plain')).statusCode).toBe(415);
    expect((await upload(t.admin, Buffer.alloc(600_000, 1))).statusCode).toBe(413);
    const other = await createUser(t);
    const foreign = await upload(other.cookie, PNG);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('Driver access denied');
    const ro = await createUser(t, { readonly: true });
    await link(t, { userId: ro.id, driverId });
    const readonly = await upload(ro.cookie, PNG);
    expect(readonly.statusCode).toBe(400);
    expect(readonly.body).toContain('Write access denied');
    expect((await upload('', PNG)).statusCode).toBe(401);
  });
});
