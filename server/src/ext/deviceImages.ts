// Device pictures and installation photos, in both modes (files always live under this server's DATA_DIR).
//   POST /api/devices/{id}/image (CONTRACT §4): body image/jpeg|png|gif|webp ≤ 500,000 B ⇒ text `device.<ext>`,
//     stored under DATA_DIR/media/{uniqueId}/ and copied to DATA_DIR/images/{id}.png (what
//     /{ns}/assets/images/{id}.png serves; browsers sniff the real image type).
//   GET /api/media/{uniqueId}/{file}: a stored media file of a device the caller can see.
//   /{ns}/devices/{id}/photos: installation photos — POST (raw image body ≤ 5 MB, 50 per device), GET (list),
//     GET /{name} (the file), DELETE /{name}.
// Reads need device access; writes also need device write rights (readonly/deviceReadonly refused). Who may do
// what comes from ./caller.ts: the local store in embedded mode, the upstream Traccar in gateway mode, where
// POST /api/devices/{id}/image and GET /api/media/... are fixed paths that win over the /api proxy (a media file
// this server does not hold is fetched from upstream with the caller's credentials).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DRIVER_IMAGE_KEY } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { checkSee, checkWrite } from '../traccar/access.ts';
import { requireUser } from '../traccar/auth.ts';
import { parseAttributes } from '../traccar/model.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { edge, edgeValue, idParams, pathIdSchema } from '../edge.ts';
import { upstreamOf } from '../gateway/upstream.ts';
import { credentials } from '../gateway/identity.ts';
import { requireCaller, type DeviceRef } from './caller.ts';
import { findDriver } from '../db/repos/catalog.ts';
import { updateObjectAsync } from '../db/repos/objects.ts';

export const DEVICE_IMAGE_MAX_BYTES = 500_000;
export const PHOTO_MAX_BYTES = 5_000_000;
export const PHOTOS_PER_DEVICE = 50;

export const IMAGE_EXT: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const TYPE_OF_EXT: Record<string, string> = {
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The image type the bytes really are (magic numbers), or null. */
export function sniffImage(b: Buffer): string | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (
    b.length >= 6 &&
    (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')
  )
    return 'image/gif';
  if (
    b.length >= 12 &&
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}

/** Validates an uploaded image body: declared type allowed, size within `max`, bytes matching the type. */
export function checkImage(
  contentType: string | undefined,
  body: unknown,
  max: number,
): { type: string; ext: string; data: Buffer } {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const ext = IMAGE_EXT[type];
  if (!ext)
    throw new ApiError(
      415,
      'Expected image/jpeg, image/png, image/gif or image/webp',
      'WebApplicationException',
    );
  if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('Empty image');
  if (body.length > max) throw new ApiError(413, `Image larger than ${max} bytes`, 'WebApplicationException');
  if (sniffImage(body) !== type) throw badRequest(`The file is not a valid ${ext} image`);
  return { type, ext, data: body };
}

const SAFE_UNIQUE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const SAFE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/;

const safeFile = z.string().regex(SAFE_FILE, 'invalid file name');
const photoParams = z.object({ id: pathIdSchema, name: safeFile });
const mediaParams = z.object({ uniqueId: z.string().min(1).max(128), file: safeFile });

/** The upload routes take the image bytes as they come (their own parser): media 'raw', bodies checked by checkImage. */
const upload = edge({ params: idParams, media: 'raw', need: 'table' });

type DeviceRow = DeviceRef;

export async function registerDeviceImages(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const gateway = ctx.config.mode === 'gateway';
  const mediaRoot = join(ctx.config.dataDir, 'media');
  const imagesDir = join(ctx.config.dataDir, 'images');

  /** The device folder; unique ids with unsafe characters get a folder named by id. */
  const deviceDir = (d: DeviceRow) =>
    join(
      mediaRoot,
      SAFE_UNIQUE_ID.test(d.uniqueId) && !d.uniqueId.includes('..') ? d.uniqueId : `id-${d.id}`,
    );

  async function visibleDevice(req: FastifyRequest, write: boolean): Promise<DeviceRow> {
    const caller = await requireCaller(ctx, req);
    const d = await caller.device(edgeValue(idParams, req.params).id);
    if (write) await caller.checkWrite('device');
    return d;
  }

  async function sendFile(reply: FastifyReply, path: string, name: string): Promise<FastifyReply> {
    const ext = name.split('.').pop()?.toLowerCase() ?? '';
    let body: Buffer;
    try {
      body = await readFile(path);
    } catch {
      throw notFound('File not found');
    }
    return reply
      .type(TYPE_OF_EXT[ext] ?? 'application/octet-stream')
      .header('cache-control', 'private, max-age=60')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }

  async function isFile(path: string): Promise<boolean> {
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  /** Gateway mode: a media file Rastro does not hold (e.g. a camera photo) comes from the upstream Traccar. */
  async function relayMedia(
    req: FastifyRequest,
    reply: FastifyReply,
    d: DeviceRow,
    file: string,
  ): Promise<FastifyReply> {
    const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
    const url = `${origin}${basePath}/api/media/${encodeURIComponent(d.uniqueId)}/${encodeURIComponent(file)}`;
    let res: Response;
    try {
      res = await fetch(url, { headers: credentials(req) ?? {}, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      ctx.log.warn({ err }, 'upstream media request failed');
      throw new ApiError(502, 'Traccar server unreachable', 'WebApplicationException');
    }
    if (res.status === 404) throw notFound('File not found');
    const body = Buffer.from(await res.arrayBuffer());
    return reply
      .status(res.status)
      .type(res.headers.get('content-type') ?? 'application/octet-stream')
      .header('cache-control', 'private, max-age=60')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }

  await app.register(async (scope) => {
    // raw bodies: every upload route here takes the image bytes as the request body
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES + 1 },
      (_req, body, done) => done(null, body),
    );

    const imageRoute = { bodyLimit: DEVICE_IMAGE_MAX_BYTES + 1, ...upload };
    scope.post('/api/devices/:id/image', imageRoute, async (req, reply) => {
      const d = await visibleDevice(req, true);
      const img = checkImage(req.headers['content-type'], req.body, DEVICE_IMAGE_MAX_BYTES);
      const dir = deviceDir(d);
      await mkdir(dir, { recursive: true });
      for (const f of await readdir(dir))
        if (/^device\.[a-z]+$/.test(f)) await rm(join(dir, f), { force: true });
      const name = `device.${img.ext}`;
      await writeFile(join(dir, name), img.data);
      await mkdir(imagesDir, { recursive: true });
      await copyFile(join(dir, name), join(imagesDir, `${d.id}.png`));
      return reply.type('text/plain; charset=utf-8').send(name);
    });

    // Driver photo (SPEC §3 Driver imageUpdated; served at /{ns}/assets/images/drivers/{id}.png by media.ts):
    // embedded mode only, for a caller who sees the driver and may write; the driver's `imageUpdated` attribute
    // changes with each upload so the web's cache buster follows.
    const driverPhotoTarget = async (req: FastifyRequest) => {
      if (ctx.config.mode === 'gateway') throw badRequest('Driver photos need the embedded server');
      const user = await requireUser(ctx, req);
      const { id } = edgeValue(idParams, req.params);
      await checkSee(ctx, user, 'driver', id);
      await checkWrite(ctx, user);
      const row = await findDriver(ctx.store.sql, id);
      if (!row) throw notFound(`Driver ${id} not found`);
      return { id, attributes: parseAttributes(row.attributes) };
    };
    const driverPhoto = (id: number) => join(imagesDir, 'drivers', `${id}.png`);
    const setDriverStamp = async (id: number, attributes: Record<string, unknown>, stamp: number | null) => {
      const { [DRIVER_IMAGE_KEY]: _old, ...rest } = attributes;
      const next = stamp === null ? rest : { ...rest, [DRIVER_IMAGE_KEY]: stamp };
      await updateObjectAsync(ctx.store.sql, 'drivers', id, { attributes: JSON.stringify(next) });
    };
    scope.post(`/${ctx.config.ns}/drivers/:id/image`, imageRoute, async (req) => {
      const d = await driverPhotoTarget(req);
      const img = checkImage(req.headers['content-type'], req.body, DEVICE_IMAGE_MAX_BYTES);
      await mkdir(join(imagesDir, 'drivers'), { recursive: true });
      await writeFile(driverPhoto(d.id), img.data);
      const stamp = Date.now();
      await setDriverStamp(d.id, d.attributes, stamp);
      return { [DRIVER_IMAGE_KEY]: stamp };
    });
    const byId = edge({ params: idParams, need: 'table' });
    scope.delete(`/${ctx.config.ns}/drivers/:id/image`, byId, async (req, reply) => {
      const d = await driverPhotoTarget(req);
      await rm(driverPhoto(d.id), { force: true });
      await setDriverStamp(d.id, d.attributes, null);
      return reply.status(204).send();
    });

    const photosDir = (d: DeviceRow) => join(deviceDir(d), 'photos');
    const photoUrl = (d: DeviceRow, name: string) => `/${ctx.config.ns}/devices/${d.id}/photos/${name}`;
    async function listPhotos(d: DeviceRow) {
      let files: string[];
      try {
        files = (await readdir(photosDir(d))).filter((f) => SAFE_FILE.test(f)).sort();
      } catch {
        return [];
      }
      const out = [];
      for (const name of files) {
        const s = await stat(join(photosDir(d), name));
        out.push({ name, url: photoUrl(d, name), size: s.size, uploadedAt: s.mtime.toISOString() });
      }
      return out;
    }

    const photoRoute = { bodyLimit: PHOTO_MAX_BYTES + 1, ...upload };
    scope.post(`/${ctx.config.ns}/devices/:id/photos`, photoRoute, async (req) => {
      const d = await visibleDevice(req, true);
      const img = checkImage(req.headers['content-type'], req.body, PHOTO_MAX_BYTES);
      if ((await listPhotos(d)).length >= PHOTOS_PER_DEVICE)
        throw badRequest(`At most ${PHOTOS_PER_DEVICE} photos per device`);
      await mkdir(photosDir(d), { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.${img.ext}`;
      await writeFile(join(photosDir(d), name), img.data);
      return { name, url: photoUrl(d, name), size: img.data.length, uploadedAt: new Date().toISOString() };
    });

    scope.get(`/${ctx.config.ns}/devices/:id/photos`, byId, async (req) =>
      listPhotos(await visibleDevice(req, false)),
    );

    const photoEdge = edge({ params: photoParams, need: 'table' });
    scope.get(`/${ctx.config.ns}/devices/:id/photos/:name`, photoEdge, async (req, reply) => {
      const d = await visibleDevice(req, false);
      const { name } = edgeValue(photoParams, req.params);
      return sendFile(reply, join(photosDir(d), name), name);
    });

    scope.delete(`/${ctx.config.ns}/devices/:id/photos/:name`, photoEdge, async (req, reply) => {
      const d = await visibleDevice(req, true);
      const { name } = edgeValue(photoParams, req.params);
      try {
        await stat(join(photosDir(d), name));
      } catch {
        throw notFound('File not found');
      }
      await rm(join(photosDir(d), name), { force: true });
      return reply.status(204).send();
    });

    // files a device sent (Traccar's media): a signed-in caller who sees the device
    scope.get(
      '/api/media/:uniqueId/:file',
      edge({ params: mediaParams, need: 'signedIn' }),
      async (req, reply) => {
        const caller = await requireCaller(ctx, req);
        const { uniqueId, file } = edgeValue(mediaParams, req.params);
        const d = await caller.deviceByUniqueId(uniqueId);
        const path = join(deviceDir(d), file);
        if (gateway && !(await isFile(path))) return relayMedia(req, reply, d, file);
        return sendFile(reply, path, file);
      },
    );
  });
}
