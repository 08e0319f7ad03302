// Device picture (POST /api/devices/{id}/image, CONTRACT §4) and installation photos under /{ns}/devices/{id}/photos.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createDevice, createUser, link, makeTestApp, type TestApp } from '../helpers/index.ts';
import { DEVICE_IMAGE_MAX_BYTES, sniffImage } from '../../src/ext/deviceImages.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(16)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.alloc(4),
  Buffer.from('WEBP', 'latin1'),
  Buffer.alloc(8),
]);

const upload = (cookie: string, url: string, body: Buffer, type: string): Promise<LightMyRequestResponse> =>
  t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': type }, payload: body });
const get = (cookie: string | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('sniffImage', () => {
  it('recognises the four formats by their magic bytes', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(JPEG)).toBe('image/jpeg');
    expect(sniffImage(GIF)).toBe('image/gif');
    expect(sniffImage(WEBP)).toBe('image/webp');
    expect(sniffImage(Buffer.from('hello world'))).toBeNull();
  });
});

describe('POST /api/devices/{id}/image', () => {
  it('stores a jpeg as device.jpeg, serves it under /api/media/{uniqueId}/ and as the device picture', async () => {
    const d = await createDevice(t);
    const res = await upload(t.admin, `/api/devices/${d.id}/image`, JPEG, 'image/jpeg');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('device.jpeg');
    const media = await get(t.admin, `/api/media/${d.uniqueId}/device.jpeg`);
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('image/jpeg');
    expect(media.rawPayload.equals(JPEG)).toBe(true);
    expect((await get(null, `/rastro/assets/images/${d.id}.png`)).statusCode).toBe(401); // a session is needed
    const pic = await get(t.admin, `/rastro/assets/images/${d.id}.png`);
    expect(pic.statusCode).toBe(200);
    expect(pic.rawPayload.equals(JPEG)).toBe(true);
    // a new upload replaces the old file
    expect((await upload(t.admin, `/api/devices/${d.id}/image`, PNG, 'image/png')).body).toBe('device.png');
    expect((await get(t.admin, `/api/media/${d.uniqueId}/device.jpeg`)).statusCode).toBe(404);
    expect((await get(t.admin, `/api/media/${d.uniqueId}/device.png`)).statusCode).toBe(200);
    for (const [buf, type, name] of [
      [GIF, 'image/gif', 'device.gif'],
      [WEBP, 'image/webp', 'device.webp'],
    ] as const) {
      expect((await upload(t.admin, `/api/devices/${d.id}/image`, buf, type)).body).toBe(name);
    }
  });

  it('accepts exactly 500,000 bytes and refuses 500,001; refuses other types and mismatching bytes', async () => {
    const d = await createDevice(t);
    const exact = Buffer.concat([JPEG, Buffer.alloc(DEVICE_IMAGE_MAX_BYTES - JPEG.length)]);
    expect((await upload(t.admin, `/api/devices/${d.id}/image`, exact, 'image/jpeg')).statusCode).toBe(200);
    const big = Buffer.concat([exact, Buffer.alloc(1)]);
    expect((await upload(t.admin, `/api/devices/${d.id}/image`, big, 'image/jpeg')).statusCode).toBe(413);
    const svg = await upload(t.admin, `/api/devices/${d.id}/image`, Buffer.from('<svg/>'), 'image/svg+xml');
    expect(svg.statusCode).toBe(415);
    const fake = await upload(
      t.admin,
      `/api/devices/${d.id}/image`,
      Buffer.from('not a png at all'),
      'image/png',
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.body).toBe('IllegalArgumentException: The file is not a valid png image');
    expect((await upload(t.admin, `/api/devices/abc/image`, PNG, 'image/png')).statusCode).toBe(400);
  });

  it('refuses devices the caller cannot see, readonly users, and anonymous calls', async () => {
    const d = await createDevice(t);
    const stranger = await createUser(t);
    const denied = await upload(stranger.cookie, `/api/devices/${d.id}/image`, PNG, 'image/png');
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toBe('SecurityException: Device access denied');
    const ro = await createUser(t, { readonly: true });
    await link(t, { userId: ro.id, deviceId: d.id });
    const roRes = await upload(ro.cookie, `/api/devices/${d.id}/image`, PNG, 'image/png');
    expect(roRes.body).toBe('SecurityException: Write access denied');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/devices/${d.id}/image`,
          headers: { 'content-type': 'image/png' },
          payload: PNG,
        })
      ).statusCode,
    ).toBe(401);
    // the readonly user may still look at pictures of its device
    await upload(t.admin, `/api/devices/${d.id}/image`, PNG, 'image/png');
    expect((await get(ro.cookie, `/api/media/${d.uniqueId}/device.png`)).statusCode).toBe(200);
    expect((await get(stranger.cookie, `/api/media/${d.uniqueId}/device.png`)).statusCode).toBe(400);
    expect((await get(t.admin, `/api/media/${d.uniqueId}/..%2Fx`)).statusCode).toBe(400);
  });
});

describe('installation photos', () => {
  it('uploads, lists, serves and deletes photos of a device', async () => {
    const owner = await createUser(t);
    const d = await createDevice(t, {}, owner.cookie);
    const base = `/rastro/devices/${d.id}/photos`;
    expect((await get(owner.cookie, base)).json()).toEqual([]);
    const a = await upload(owner.cookie, base, JPEG, 'image/jpeg');
    expect(a.statusCode).toBe(200);
    const photo = a.json() as { name: string; url: string; size: number };
    expect(photo.name).toMatch(/^\d+-[0-9a-f]{8}\.jpeg$/);
    expect(photo.url).toBe(`${base}/${photo.name}`);
    expect(photo.size).toBe(JPEG.length);
    await upload(owner.cookie, base, PNG, 'image/png');
    const list = (await get(owner.cookie, base)).json() as Array<{ name: string }>;
    expect(list).toHaveLength(2);
    const file = await get(owner.cookie, photo.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.rawPayload.equals(JPEG)).toBe(true);

    const stranger = await createUser(t);
    expect((await get(stranger.cookie, base)).statusCode).toBe(400);
    expect((await upload(stranger.cookie, base, PNG, 'image/png')).statusCode).toBe(400);

    const del = await t.app.inject({ method: 'DELETE', url: photo.url, headers: { cookie: owner.cookie } });
    expect(del.statusCode).toBe(204);
    expect((await get(owner.cookie, base)).json()).toHaveLength(1);
    expect(
      (await t.app.inject({ method: 'DELETE', url: photo.url, headers: { cookie: owner.cookie } }))
        .statusCode,
    ).toBe(404);
    expect((await upload(owner.cookie, base, Buffer.from('text'), 'text/plain')).statusCode).toBe(415);
  });
});
