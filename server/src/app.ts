import Fastify, { LogController, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import { EventEmitter } from 'node:events';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { LocalCluster, PgCluster, type ClusterMessage } from './db/cluster.ts';
import { openStoreAsync } from './db/open.ts';
import { ApiError, unavailable } from './errors.ts';
import { isDatabaseUnavailable } from './db/sql.ts';
import { formatMessage } from '@rastro/domain';
import { requestLanguage } from './refusal.ts';
import { loggerOptions, logRequests } from './logging.ts';
import { registerTraccar } from './traccar/index.ts';
import { registerLive } from './live/index.ts';
import { registerExtensions } from './ext/index.ts';
import { registerGateway } from './gateway/index.ts';
import { registerWebApp } from './webApp.ts';
import { registerAuthorization, registerInputRefusal } from './authorize.ts';
import { registerEdge } from './edge.ts';
import { registerSuspensionGuard } from './ext/billing/guard.ts';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

/** Composes the whole server for a configuration. Nothing listens until the caller calls app.listen. */
export async function buildApp(config: Config): Promise<BuiltApp> {
  const app = Fastify({
    logger: loggerOptions(config),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 8 * 1024 * 1024,
    trustProxy: true,
  });
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  // PostgreSQL: the migrations on a connection of their own, before anything listens (db/open.ts)
  const store = await openStoreAsync({
    sqliteFile: config.sqliteFile,
    databaseUrl: config.databaseUrl,
    pool: { size: config.dbPoolSize },
  });
  const cluster =
    store.kind === 'postgres' && config.databaseUrl
      ? await PgCluster.start(config.databaseUrl, (err) => app.log.warn({ err }, 'cluster'))
      : new LocalCluster();
  const ctx: AppContext = { config, store, cluster, log: app.log, bus, onClose: [] };
  linkBusToCluster(ctx);
  logRequests(app);

  app.setErrorHandler((err, req, reply) => {
    if (isDatabaseUnavailable(err)) {
      // issue #30: PostgreSQL unreachable or not answering — 503 in the caller's language, not 500 or 400
      req.log.warn({ reason: err.message }, 'database unavailable');
      const e = unavailable(formatMessage('traccarErrors.databaseUnavailable', requestLanguage(ctx, req)));
      reply.status(e.status).headers(e.headers).type('text/plain; charset=utf-8').send(e.body);
      return;
    }
    if (err instanceof ApiError) {
      reply.status(err.status).headers(err.headers).type('text/plain; charset=utf-8').send(err.body);
      return;
    }
    const e = err as { statusCode?: number; message?: string; validation?: unknown; code?: string };
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : undefined;
    if (status) {
      reply.status(status).type('text/plain; charset=utf-8').send(`WebApplicationException: ${e.message}`);
      return;
    }
    req.log.error({ err }, 'unhandled error');
    reply.status(500).type('text/plain; charset=utf-8').send('Internal server error');
  });

  // The one edge (edge.ts): media, parsed params/query/body and each route's need, before any route.
  registerEdge(app, ctx);
  await app.register(formbody);
  await app.register(cookie);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  // The advanced permission bits (docs/permissions.md): one preHandler in front of every route below.
  registerAuthorization(app, ctx);
  registerSuspensionGuard(app, ctx);
  registerInputRefusal(app); // the edge's 400s, after the gate's and the guard's refusals
  if (config.mode === 'gateway') {
    await registerGateway(app, ctx);
  } else {
    await registerTraccar(app, ctx);
    await registerLive(app, ctx);
  }
  await registerExtensions(app, ctx);

  await registerWebApp(app, config);

  app.addHook('onClose', async () => {
    for (const stop of ctx.onClose.reverse()) await stop();
    await cluster.close();
    await store.close();
  });
  return { app, ctx };
}

/**
 * What the bus says that other processes must hear (db/cluster.ts): configuration changes (their caches reload)
 * and sessions the server ended. What they say comes back on this bus, marked so it is not sent on again.
 */
function linkBusToCluster(ctx: AppContext): void {
  let applying = false;
  const forward = (message: ClusterMessage) => () => {
    if (!applying) ctx.cluster.publish(message);
  };
  // a device's own write names the device: the others read it alone again (live/cache.ts invalidateDevices)
  ctx.bus.on('permissions', (devices?: readonly number[]) => {
    if (!applying) ctx.cluster.publish(devices ? { t: 'changed', devices: [...devices] } : { t: 'changed' });
  });
  ctx.bus.on('device', forward({ t: 'changed' }));
  ctx.bus.on('signedOut', (userId: number) => {
    if (!applying) ctx.cluster.publish({ t: 'signedOut', userId });
  });
  ctx.cluster.subscribe((m) => {
    // 'live' and 'devices': live/index.ts and live/deviceChanges.ts; 'alarm': ext/alarms.ts
    if (m.t !== 'changed' && m.t !== 'signedOut') return;
    applying = true;
    try {
      if (m.t === 'changed') ctx.bus.emit('permissions', Array.isArray(m.devices) ? m.devices : undefined);
      else ctx.bus.emit('signedOut', m.userId);
    } finally {
      applying = false;
    }
  });
}
