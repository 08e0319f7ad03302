// GET /{ns}/assets/custom/config.json: branding and push configuration (SPEC §1, §7 client A).
// A deployment edits DATA_DIR/custom/config.json; its fields override the shipped default
// (server/src/ext/assets/config.json). The file is read on each request so edits apply without a restart.
// A reseller's domain (SPEC §3) selects its own file on top: DATA_DIR/custom/domains/{domain}.json, written by the
// theme editor when a reseller saves (theme.ts), chosen by the request's Host header.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { normalizeHost } from '@rastro/domain';
import { edge } from '../edge.ts';
import type { AppContext } from '../context.ts';
import { resellerOfDomain } from '../traccar/resellers.ts';

const headLogoSchema = z.object({
  image: z.boolean(),
  text: z.string(),
  url: z.string(),
});

// Theme fields (PUT /{ns}/theme, ./theme.ts): logo width, colours and the login screen.
const colorsSchema = z.object({
  primary: z.string(),
  header: z.string(),
  menu: z.string(),
  loginPanel: z.string(),
});
const loginScreenSchema = z.object({
  background: z.string(),
  color: z.string(),
  image: z.string(),
  slides: z.array(z.string()),
  gradient: z.array(z.string()),
  logo: z.string(),
});

export const brandingSchema = z.object({
  title: z.string(),
  headLogo: headLogoSchema,
  whatsapp: z.string(),
  androidApp: z.string(),
  appleApp: z.string(),
  dataPolicy: z.string(),
  push: z.object({ enabled: z.boolean(), vapidPublicKey: z.string() }),
  geolocation: z.object({ ipUrl: z.string(), geoUrl: z.string() }),
  logoWidth: z.number(),
  colors: colorsSchema,
  login: loginScreenSchema,
});
export type Branding = z.infer<typeof brandingSchema>;

/** What an override file may hold: any subset of the fields, nested objects merged field by field. */
const overrideSchema = z
  .object({
    title: z.string(),
    headLogo: headLogoSchema.partial(),
    whatsapp: z.string(),
    androidApp: z.string(),
    appleApp: z.string(),
    dataPolicy: z.string(),
    push: z.object({ enabled: z.boolean(), vapidPublicKey: z.string() }).partial(),
    geolocation: z.object({ ipUrl: z.string(), geoUrl: z.string() }).partial(),
    logoWidth: z.number(),
    colors: colorsSchema.partial(),
    login: loginScreenSchema.partial(),
  })
  .partial()
  .loose();

export const defaultConfigFile = join(import.meta.dirname, 'assets', 'config.json');
export const customConfigFile = (dataDir: string) => join(dataDir, 'custom', 'config.json');
export const domainsDir = (dataDir: string) => join(dataDir, 'custom', 'domains');
/** A reseller's branding file (`domain` is a normalised host name: letters, digits, dashes and dots only). */
export const domainConfigFile = (dataDir: string, domain: string) =>
  join(domainsDir(dataDir), `${domain}.json`);

export function mergeBranding(base: Branding, override: z.infer<typeof overrideSchema>): Branding {
  return {
    ...base,
    ...override,
    headLogo: { ...base.headLogo, ...override.headLogo },
    push: { ...base.push, ...override.push },
    geolocation: { ...base.geolocation, ...override.geolocation },
    colors: { ...base.colors, ...override.colors },
    login: { ...base.login, ...override.login },
  };
}

/** An override file's fields, or null (missing; broken files are skipped with a warning). */
async function readOverride(
  ctx: Pick<AppContext, 'log'>,
  file: string,
): Promise<z.infer<typeof overrideSchema> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    ctx.log.warn({ err, file }, 'a branding file is not valid JSON; it is ignored');
    return null;
  }
  const override = overrideSchema.safeParse(parsed);
  if (!override.success) {
    ctx.log.warn(
      { issues: override.error.issues, file },
      'a branding file has invalid fields; it is ignored',
    );
    return null;
  }
  return override.data;
}

/**
 * The branding served: the shipped default, then DATA_DIR/custom/config.json, then (when `domain` is a reseller's
 * domain) DATA_DIR/custom/domains/{domain}.json, each overriding field by field.
 */
export async function loadBranding(ctx: Pick<AppContext, 'config' | 'log'>, domain = ''): Promise<Branding> {
  let branding = brandingSchema.parse(JSON.parse(await readFile(defaultConfigFile, 'utf8')));
  const files = [customConfigFile(ctx.config.dataDir)];
  if (domain) files.push(domainConfigFile(ctx.config.dataDir, domain));
  for (const file of files) {
    const override = await readOverride(ctx, file);
    if (override) branding = mergeBranding(branding, override);
  }
  return branding;
}

/**
 * The reseller domain a request's Host selects: a host name some reseller holds (embedded: a reseller user with
 * that `{ns}.resellerDomain`; gateway: the users live upstream, so a branding file saved for the domain by its
 * reseller is enough), else ''.
 */
export async function requestDomain(ctx: AppContext, req: Pick<FastifyRequest, 'headers'>): Promise<string> {
  const host = normalizeHost(String(req.headers.host ?? ''));
  if (!host) return '';
  if (ctx.config.mode === 'gateway') return host;
  return (await resellerOfDomain(ctx, host)) !== null ? host : '';
}

export async function registerBranding(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // public: the sign-in page is branded before anyone signs in
  app.get(`/${ctx.config.ns}/assets/custom/config.json`, edge({ need: 'public' }), async (req, reply) => {
    const branding = await loadBranding(ctx, await requestDomain(ctx, req));
    reply.header('cache-control', 'no-cache').header('vary', 'host').type('application/json; charset=utf-8');
    return branding;
  });
}
