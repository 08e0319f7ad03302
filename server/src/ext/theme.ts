// The white-label theme editor's API (SPEC §2 theme, §6 Plus features admin only, §7 client A PUT /theme).
//   PUT  /{ns}/theme                  body: the domain's ThemeSettings ⇒ writes its fields into
//                                     DATA_DIR/custom/config.json (temp file + rename; fields it does not manage,
//                                     e.g. push, geolocation or unknown keys, are kept) and answers the merged
//                                     branding, as GET /{ns}/assets/custom/config.json will.
//   POST /{ns}/theme/images/{slot}    raw png/jpeg/webp body (magic bytes checked, ≤ THEME_IMAGE_MAX_BYTES) ⇒
//                                     `{url}`; the file is DATA_DIR/custom/images/{slot}-{version}.{ext}. A new
//                                     name per upload is the cache buster: files are served as immutable, and an
//                                     upload that is never saved does not change what users see.
//   GET  /{ns}/assets/custom/images/{file}   public (the login page shows them before sign-in).
// Writes need an administrator (403) of a Plus server (config.edition, 403); no session is 401. A reseller with a
// domain (SPEC §3) writes its own DATA_DIR/custom/domains/{domain}.json instead, served to its domain's visitors. The caller comes
// from ./caller.ts, so gateway mode asks the upstream Traccar who the caller is and the files stay local.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  parseTheme,
  THEME_IMAGE_MAX_BYTES,
  THEME_IMAGE_SLOTS,
  themeIssueText,
  type ThemeImageSlot,
  type ThemeSettings,
} from '@rastro/domain';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { edge, edgeValue } from '../edge.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { customConfigFile, domainConfigFile, domainsDir, loadBranding } from './branding.ts';
import { requireCaller } from './caller.ts';
import { sniffImage } from './deviceImages.ts';

const EXT_OF: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };
const TYPE_OF: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
const FILE = new RegExp(`^(${THEME_IMAGE_SLOTS.join('|')})-([a-z0-9]{6,40})\\.(png|jpeg|webp)$`);
/** Unreferenced uploads younger than this survive a save (another admin may be editing). */
const KEEP_UNSAVED_MS = 10 * 60_000;

export const themeImagesDir = (dataDir: string) => join(dataDir, 'custom', 'images');

/**
 * Who may write a theme, and which file it goes to: administrators write the server's (domain ''), a reseller
 * with a domain writes its domain's (SPEC §3 reseller branding); anyone else is refused.
 */
async function requireThemeWriter(ctx: AppContext, req: FastifyRequest): Promise<{ domain: string }> {
  const caller = await requireCaller(ctx, req);
  if (!caller.administrator && !caller.resellerDomain)
    throw new ApiError(403, 'Administrator access required', 'SecurityException');
  if (ctx.config.edition !== 'plus')
    throw new ApiError(403, 'The theme editor needs a Plus server', 'SecurityException');
  if (!caller.administrator) await caller.checkWrite();
  return { domain: caller.administrator ? '' : caller.resellerDomain };
}

const themeFile = (ctx: AppContext, domain: string) =>
  domain ? domainConfigFile(ctx.config.dataDir, domain) : customConfigFile(ctx.config.dataDir);

/** Writes a file atomically: a temporary sibling, then rename over the target. */
async function writeAtomic(path: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The custom config file as a plain object ({} when missing; a broken file is replaced, with a warning). */
async function readCustom(ctx: AppContext, file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  ctx.log.warn({ file }, 'a theme file was not a JSON object; the theme editor replaces it');
  return {};
}

const objectOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The custom file after saving a theme: managed fields replaced, everything else kept. */
export function applyTheme(custom: Record<string, unknown>, theme: ThemeSettings): Record<string, unknown> {
  return {
    ...custom,
    title: theme.title,
    headLogo: { ...objectOf(custom.headLogo), ...theme.headLogo },
    logoWidth: theme.logoWidth,
    colors: { ...objectOf(custom.colors), ...theme.colors },
    login: { ...objectOf(custom.login), ...theme.login },
    whatsapp: theme.whatsapp,
    androidApp: theme.androidApp,
    appleApp: theme.appleApp,
    dataPolicy: theme.dataPolicy,
  };
}

/** The text of every saved theme file: the server's and each reseller domain's. */
async function savedThemesText(ctx: AppContext): Promise<string> {
  const files = [customConfigFile(ctx.config.dataDir)];
  try {
    const dir = domainsDir(ctx.config.dataDir);
    for (const f of await readdir(dir)) if (f.endsWith('.json')) files.push(join(dir, f));
  } catch {
    /* no reseller themes yet */
  }
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8').catch(() => '')));
  return texts.join('\n');
}

/** Deletes uploaded theme images no saved theme (any domain's) points at (older than KEEP_UNSAVED_MS). */
async function removeUnused(ctx: AppContext, theme: ThemeSettings, now = Date.now()): Promise<void> {
  const dir = themeImagesDir(ctx.config.dataDir);
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return;
  }
  const own = [theme.headLogo.url, theme.login.image, theme.login.logo, ...theme.login.slides].join('\n');
  const used = `${own}\n${await savedThemesText(ctx)}`;
  for (const f of files) {
    if (!FILE.test(f) || used.includes(`/${f}`)) continue;
    try {
      if (now - (await stat(join(dir, f))).mtimeMs > KEEP_UNSAVED_MS) await rm(join(dir, f), { force: true });
    } catch (err) {
      ctx.log.warn({ err, file: f }, 'could not remove an unused theme image');
    }
  }
}

/** The theme: parseTheme checks it, a body that is no object included (its own texts). */
const themeBody = z.unknown();
const fileParams = z.object({ file: z.string() });
const slotParams = z.object({ slot: z.string() });

export async function registerTheme(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const ns = ctx.config.ns;
  const imagesDir = themeImagesDir(ctx.config.dataDir);

  // administrators and resellers (requireThemeWriter); the theme's own checks give its 400 texts
  app.put(`/${ns}/theme`, edge({ body: themeBody, anyBody: true, need: 'signedIn' }), async (req) => {
    const { domain } = await requireThemeWriter(ctx, req);
    const r = parseTheme(edgeValue(themeBody, req.body));
    if (!r.ok) throw badRequest(r.issues.map(themeIssueText).join('; '));
    const file = themeFile(ctx, domain);
    const next = applyTheme(await readCustom(ctx, file), r.theme);
    await writeAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
    ctx.log.info({ title: r.theme.title, domain: domain || undefined }, 'theme saved');
    await removeUnused(ctx, r.theme);
    return loadBranding(ctx, domain);
  });

  // public: the sign-in page shows them
  app.get(
    `/${ns}/assets/custom/images/:file`,
    edge({ params: fileParams, need: 'public' }),
    async (req, reply) => {
      const { file } = edgeValue(fileParams, req.params);
      const m = FILE.exec(file);
      if (!m) throw notFound('File not found');
      let body: Buffer;
      try {
        body = await readFile(join(imagesDir, file));
      } catch {
        throw notFound('File not found');
      }
      return reply
        .type(TYPE_OF[m[3]])
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );

  await app.register(async (scope) => {
    // the raw image bytes are the body, whatever the declared type: the magic bytes decide
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.post(
      `/${ns}/theme/images/:slot`,
      {
        bodyLimit: THEME_IMAGE_MAX_BYTES + 1,
        ...edge({ params: slotParams, media: 'raw', need: 'signedIn' }),
      },
      async (req) => {
        await requireThemeWriter(ctx, req);
        const slot = edgeValue(slotParams, req.params).slot as ThemeImageSlot;
        if (!THEME_IMAGE_SLOTS.includes(slot))
          throw badRequest(`Unknown image slot; expected one of ${THEME_IMAGE_SLOTS.join(', ')}`);
        const body = req.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('Empty image');
        if (body.length > THEME_IMAGE_MAX_BYTES)
          throw new ApiError(
            413,
            `Image larger than ${THEME_IMAGE_MAX_BYTES} bytes`,
            'WebApplicationException',
          );
        const ext = EXT_OF[sniffImage(body) ?? ''];
        if (!ext) throw badRequest('The file is not a PNG, JPEG or WebP image');
        const version = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
        const name = `${slot}-${version}.${ext}`;
        await writeAtomic(join(imagesDir, name), body);
        return { url: `/${ns}/assets/custom/images/${name}`, size: body.length, type: TYPE_OF[ext] };
      },
    );
  });
}
