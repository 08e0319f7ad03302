import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { RemoteDeviceState } from '../db/cluster.ts';
import { registerAnchorAlarms } from './anchor.ts';
import { registerCommandRoutes } from './commands.ts';
import { registerComputedTestRoute } from './computed/route.ts';
import { getLive, type LiveCore } from './ingest.ts';
import { registerGeocoder } from './geocoder/index.ts';
import { registerGeofenceLocks } from './geofenceLocks.ts';
import { Notifier, registerNotificationRoutes } from './notifications.ts';
import { registerOsmAndRoute, startOsmAndServer } from './osmand.ts';
import { registerPositionRoutes } from './positions.ts';
import { registerQrDriver } from './qrDriver.ts';
import { registerAssistant } from './assistant.ts';
import { registerAutolink } from './autolink.ts';
import { registerCatchup } from './catchup.ts';
import { registerScheduledReports } from './reports/scheduled.ts';
import { invalidateAfter, registerDeviceChanges } from './deviceChanges.ts';
import { registerReports } from './reports/index.ts';
import { registerInsights } from './insights/index.ts';
import { startFleet } from './simulator/index.ts';
import { registerSocket, SocketHub } from './socket.ts';
import { loadNotificatorConfig } from './notificators/config.ts';
import { sendMail, smtpOptions } from './notificators/mail.ts';
import { setMailer, type MailMessage } from '../traccar/mailer.ts';
import { setHeldRows } from '../traccar/heldRows.ts';
import { resetDeviceStatuses } from '../db/repos/ingest.ts';

export interface LiveServices {
  live: LiveCore;
  hub: SocketHub;
  notifier: Notifier;
  /** The dedicated OsmAnd listener, when config.osmandPort > 0 and the port was free. */
  osmand: Server | null;
}

const services = new WeakMap<AppContext, LiveServices>();

/** The live services of an app (after registerLive). */
/** Whether a write to this API path may change what the live pipeline reads (the session's own paths do not). */
export function writesLiveData(url: string): boolean {
  return url.startsWith('/api/') && !/^\/api\/session(?:[/?]|$)/.test(url);
}

export function getLiveServices(ctx: AppContext): LiveServices {
  const s = services.get(ctx);
  if (!s) throw new Error('registerLive has not run for this app');
  return s;
}

/** Live side of the embedded core: positions, processing, socket, OsmAnd, commands, reports, simulator. */
export async function registerLive(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const live = getLive(ctx);
  await live.readQueuedDevices();
  // Server start: every status is reset (rendered "offline") until the device reports again (CONTRACT §7), before
  // anything is served, without the main thread waiting (issue #30); a process joining others on PostgreSQL (not the
  // leader) leaves the statuses they keep. A cache read before it is read again.
  if (ctx.cluster.isLeader()) {
    await resetDeviceStatuses(ctx.store.sql);
    live.invalidate();
  }
  const hub = new SocketHub(ctx, live);
  const channels = loadNotificatorConfig();
  const notifier = new Notifier(ctx, live, hub, channels);
  // With SMTP configured, the core's mails (password reset) go out through the same client.
  const smtp = smtpOptions(channels);
  if (smtp) {
    const outbox: MailMessage[] = [];
    setMailer(ctx, {
      configured: true,
      outbox,
      async send(m) {
        outbox.push(m);
        if (outbox.length > 100) outbox.shift();
        await sendMail(smtp, m.to, m.subject, m.body, m.attachments);
        return { sent: true };
      },
    });
  }
  const s: LiveServices = { live, hub, notifier, osmand: null };
  services.set(ctx, s);
  registerAnchorAlarms(ctx, live); // ACTIONS: anchor exits become alarm events
  registerGeofenceLocks(ctx, live); // geofences with lock on enter / exit block the engine

  // Anything written through the API may change what the pipeline reads (devices, geofences, links...).
  // Other processes on the same PostgreSQL database (db/cluster.ts) hear of it too, and of every batch stored here.
  // Signing in and out changes none of it: reloading the cache after each login held a 10,000-device server for
  // 170 ms just as the signed-in page asked for its code and data (issue #13).
  // A device's own write (created, edited) reads that device alone again (deviceChanges.ts invalidateAfter).
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && writesLiveData(req.url)) {
      const devices = invalidateAfter(live, req, reply.statusCode, payload);
      ctx.cluster.publish(devices ? { t: 'changed', devices } : { t: 'changed' });
    }
    return payload;
  });
  let batch: { t: 'live'; devices: RemoteDeviceState[]; positions: number[]; events: number[] } | null = null;
  const told = () => {
    if (!batch) {
      batch = { t: 'live', devices: [], positions: [], events: [] };
      queueMicrotask(() => {
        if (batch) ctx.cluster.publish(batch);
        batch = null;
      });
    }
    return batch;
  };
  live.subscribe({
    devices: (ds) => told().devices.push(...live.remoteStates(ds.map((d) => d.id))),
    positions: (ps) => told().positions.push(...ps.map((p) => p.id)),
    events: (es) => told().events.push(...es.map((e) => e.id)),
  });
  // Another process's batch: its rows are read only for socket clients, on the read pool (issue #30: never waited
  // for behind this process's own COMMIT); the messages are applied in the order they came.
  let remote = Promise.resolve();
  ctx.cluster.subscribe((m) => {
    if (m.t !== 'live') return;
    const watched = hub.clientCount > 0;
    const read = watched ? live.readRemote(m.positions, m.events).catch(() => undefined) : null; // else waited
    remote = remote
      .then(() => read)
      .then(() => live.applyRemote(m, watched))
      .catch((err: unknown) => ctx.log.warn({ err }, 'cluster: a batch of another process not applied'));
  });
  registerDeviceChanges(app, ctx, live, hub); // API changes of a device reach the sockets of those who see it
  // the device list's rows from memory, with their live state (traccar/heldRows.ts)
  setHeldRows(ctx, 'devices', { rows: (ids) => live.storedRows(ids) });
  ctx.bus.on('permissions', (devices?: readonly number[]) =>
    devices ? live.cache.invalidateDevices(devices) : live.invalidate(),
  );
  ctx.bus.on('device', () => live.invalidate());

  await registerSocket(app, ctx, hub);
  await registerPositionRoutes(app, ctx, live);
  registerCatchup(app, ctx, live);
  registerComputedTestRoute(app, ctx, live);
  await registerCommandRoutes(app, ctx, live);
  await registerNotificationRoutes(app, ctx, live, notifier);
  await registerOsmAndRoute(app, ctx, live);
  registerGeocoder(app, ctx, live);
  registerReports(app, ctx);
  registerQrDriver(app, ctx, live);
  registerAssistant(app, ctx, live);
  registerInsights(app, ctx, live);
  registerAutolink(app, ctx, live);
  registerScheduledReports(app, ctx);

  live.logSink = (record) => {
    if (hub.wantsLogs) hub.pushLog(record);
  };
  live.start();
  hub.start();
  notifier.start();
  if (ctx.config.osmandPort > 0) {
    try {
      s.osmand = await startOsmAndServer(ctx, live);
    } catch (err) {
      ctx.log.warn(
        { err },
        `OsmAnd port ${ctx.config.osmandPort} unavailable; devices can still post to the web port`,
      );
    }
  }
  // The demo fleet (SIM_DEVICES > 0): seeds an empty database, then reports through the pipeline.
  void startFleet(ctx).catch((err: unknown) => ctx.log.error({ err }, 'demo fleet failed to start'));
  ctx.onClose.push(async () => {
    if (s.osmand) await new Promise<void>((r) => s.osmand!.close(() => r()));
    s.osmand?.closeAllConnections();
    notifier.close();
    hub.close();
    await live.close();
  });
}
