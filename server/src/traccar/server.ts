// Server settings and transport conventions (CONTRACT §1, §3 Server, §4): GET/PUT /api/server, timezones,
// health, reboot, CORS headers and the edition headers of SPEC §6.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { statfsSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import {
  keepAbsentFields,
  liftedRestrictions,
  serverInput,
  visibleServerAttributes,
  type Attributes,
  type ServerViewer,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { corsHeaders } from '../cors.ts';
import { edge, edgeBodyKeys, edgeValue, noBody } from '../edge.ts';
import { pingStoreAsync, serverSettingsAsync, updateServerSettingsAsync } from '../db/repos/server.ts';
import { anyUserAsync } from '../db/repos/users.ts';
import { badRequest } from '../errors.ts';
import { logAction, logLifted } from './audit.ts';
import { getUser, requireUser, type UserRow } from './auth.ts';
import { getMailer } from './mailer.ts';
import { COLUMNS, inputToRow, rowToJson, type Json, type Row } from './model.ts';

/** The Traccar API version the embedded core implements (clients compare it); Rastro's own is VERSION. */
export const TRACCAR_API_VERSION = '6.14.5';

/** Rastro's version, from the root package.json (two folders up from src/traccar, or from the built dist/). */
export const VERSION = (() => {
  for (const up of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'rastro' && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
})();

const storedServer = async (ctx: AppContext) => {
  const row = await serverSettingsAsync(ctx.store.sql);
  return row as unknown as Row;
};

/** GET /api/server's answer for this viewer: the settings and whether any user exists, read on the read pool. */
export async function serverJson(ctx: AppContext, user: UserRow | null): Promise<Json> {
  const [row, someUser] = await Promise.all([storedServer(ctx), anyUserAsync(ctx.store.sql)]);
  let storageSpace: number[] | null = null;
  if (user?.administrator) {
    try {
      const s = statfsSync(ctx.config.dataDir);
      storageSpace = [s.bavail * s.bsize, s.blocks * s.bsize];
    } catch {
      storageSpace = null;
    }
  }
  const json = rowToJson(COLUMNS.server, row);
  // Secrets never leave the server but to administrators; map keys only to signed-in users (serverSecrets.ts).
  const viewer: ServerViewer = user?.administrator ? 'admin' : user ? 'user' : 'anonymous';
  json.attributes = visibleServerAttributes(json.attributes as Attributes, viewer, ctx.config.ns);
  if (viewer === 'anonymous') json.bingKey = null;
  return {
    ...json,
    version: TRACCAR_API_VERSION,
    emailEnabled: getMailer(ctx).configured,
    textEnabled: false,
    geocoderEnabled: !!ctx.config.geocoder,
    storageSpace,
    newServer: !user && !someUser,
    openIdEnabled: false,
    openIdForce: false,
  };
}

function editionHeaders(ctx: AppContext, reply: FastifyReply): void {
  reply.header('licensemode', ctx.config.edition).header('devicelimit', String(ctx.config.deviceLimit));
}

export function registerServer(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith(`/${ctx.config.ns}/`)) {
      corsHeaders(ctx, req, reply);
      if (req.url.startsWith('/api/server')) editionHeaders(ctx, reply);
    }
  });

  // CORS preflights: no body, no caller; corsHeaders (above) answers them (docs/security.md, exempt routes)
  const preflight = edge({ need: 'exempt', exempt: 'preflight' });
  app.options('/api/*', preflight, async (_req, reply) => reply.status(204).send());
  app.options(`/${ctx.config.ns}/*`, preflight, async (_req, reply) => reply.status(204).send());

  app.get('/api/health', edge({ need: 'public' }), async (_req, reply) => {
    await pingStoreAsync(ctx.store.sql);
    return reply.type('text/plain; charset=utf-8').send('OK');
  });

  // public: what each viewer sees is serverJson's allow-list
  app.get('/api/server', edge({ need: 'public' }), async (req) => serverJson(ctx, await getUser(ctx, req)));

  app.put('/api/server', edge({ body: serverInput, need: 'administrator' }), async (req) => {
    const user = await requireUser(ctx, req);
    const parsed = edgeValue(serverInput, req.body);
    // Fail closed (issue #27): fields left out keep what would lift a restriction; an explicit lift is audited.
    const stored = rowToJson(COLUMNS.server, await storedServer(ctx));
    const input = keepAbsentFields('server', edgeBodyKeys(req), parsed, stored);
    const values = inputToRow(COLUMNS.server, input);
    await updateServerSettingsAsync(ctx.store.sql, values);
    await logAction(ctx, req, user.id, 'edit', 'server', 1);
    await logLifted(
      ctx,
      req,
      user.id,
      'server',
      1,
      liftedRestrictions('server', stored, input, ctx.config.ns),
    );
    return serverJson(ctx, user);
  });

  app.get('/api/server/timezones', edge({ need: 'signedIn' }), async (req) => {
    await requireUser(ctx, req);
    const zones = new Set(Intl.supportedValuesOf('timeZone'));
    zones.add('UTC');
    return [...zones].sort();
  });

  // Traccar's path is /reboot; the Rastro client (SPEC §7) calls /restart. Neither can exit an embedded server.
  for (const path of ['/api/server/reboot', '/api/server/restart']) {
    app.post(path, edge({ body: noBody, need: 'administrator' }), async () => {
      throw badRequest('Not supported in embedded mode');
    });
  }
}
