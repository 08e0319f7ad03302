// GET /{ns}/assets/custom/config.json: branding and push configuration (SPEC §1, §7 client A).
// A deployment edits DATA_DIR/custom/config.json; its fields override the shipped default
// (server/src/ext/assets/config.json). The file is read on each request so edits apply without a restart.
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../context.ts';

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
const loginSchema = z.object({
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
  login: loginSchema,
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
    login: loginSchema.partial(),
  })
  .partial()
  .loose();

export const defaultConfigFile = join(import.meta.dirname, 'assets', 'config.json');
export const customConfigFile = (dataDir: string) => join(dataDir, 'custom', 'config.json');

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

export async function loadBranding(ctx: Pick<AppContext, 'config' | 'log'>): Promise<Branding> {
  const base = brandingSchema.parse(JSON.parse(await readFile(defaultConfigFile, 'utf8')));
  let text: string;
  try {
    text = await readFile(customConfigFile(ctx.config.dataDir), 'utf8');
  } catch {
    return base;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    ctx.log.warn({ err }, 'custom/config.json is not valid JSON; serving the default branding');
    return base;
  }
  const override = overrideSchema.safeParse(parsed);
  if (!override.success) {
    ctx.log.warn(
      { issues: override.error.issues },
      'custom/config.json has invalid fields; serving the default',
    );
    return base;
  }
  return mergeBranding(base, override.data);
}

export async function registerBranding(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(`/${ctx.config.ns}/assets/custom/config.json`, async (_req, reply) => {
    const branding = await loadBranding(ctx);
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    return branding;
  });
}
