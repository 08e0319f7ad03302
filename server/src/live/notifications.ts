// Notifications (CONTRACT §9): match every stored event against the notifications that apply to its device,
// then deliver through each listed notificator: `web` over the socket (with attributes.message), `command`
// to the device, the others through their adapters when configured. Plus the /api/notifications/* endpoints.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  EVENT_TYPES,
  MESSAGE_CHANNELS,
  availableChannels,
  checkChannelMessage,
  queryIdList,
  type Attributes,
  type Command,
  type Event,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { findSavedCommandAsync, type SavedCommand } from '../db/repos/catalog.ts';
import { badRequest, denied } from '../errors.ts';
import { invalidInput } from '../invalid.ts';
import { refused } from '../refusal.ts';
import { requireUser } from '../traccar/auth.ts';
import { edge, edgeValue, noBody } from '../edge.ts';
import { parseJson, type LiveCache, type NotificationConf, type User } from './cache.ts';
import { deliverCommand } from './commands.ts';
import type { LiveCore } from './ingest.ts';
import { iso } from './json.ts';
import { eventText, recipientLanguage, recipientSpeedUnit } from './eventTexts.ts';
import type { SocketHub } from './socket.ts';
import { loadNotificatorConfig, type NotificatorConfig } from './notificators/config.ts';
import { mailNotificator } from './notificators/mail.ts';
import { pushNotificator, smsNotificator, telegramNotificator } from './notificators/http.ts';
import { smsApiSettings } from './notificators/smsApi.ts';
import { NotConfigured, type NotificationMessage, type Notificator } from './notificators/types.ts';

export const NOTIFICATOR_TYPES = ['web', 'mail', 'sms', 'firebase', 'telegram', 'command'] as const;
/** Events older than this are stored but not notified. */
export const MAX_EVENT_AGE_MS = 15 * 60 * 1000;

const list = (v: unknown): string[] =>
  v === undefined || v === null
    ? []
    : String(v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

export class Notifier {
  readonly notificators = new Map<string, Notificator>();
  private unsubscribe: (() => void) | null = null;
  /** The last queued delivery of events (onEvents), null when none waits. */
  private queued: Promise<void> | null = null;
  /** The last 100 deliveries attempted through adapters (diagnostics). */
  readonly delivered: Array<{ notificator: string; userId: number; subject: string }> = [];

  private record(notificator: string, userId: number, subject: string): void {
    this.delivered.push({ notificator, userId, subject });
    if (this.delivered.length > 100) this.delivered.shift();
  }

  constructor(
    private readonly ctx: AppContext,
    private readonly live: LiveCore,
    private readonly hub: SocketHub,
    cfg: NotificatorConfig = loadNotificatorConfig(),
  ) {
    for (const n of [
      mailNotificator(cfg),
      // the cache as last read: every caller that delivers reads it fresh first (onEvents, the routes below)
      smsNotificator(cfg, () => smsApiSettings(this.live.cache.serverAttrs, this.ctx.config.ns)),
      pushNotificator(cfg),
      telegramNotificator(cfg),
    ]) {
      this.notificators.set(n.type, n);
    }
  }

  /** Replaces a channel adapter (tests, custom integrations). */
  setNotificator(n: Notificator): void {
    this.notificators.set(n.type, n);
  }

  start(): void {
    this.unsubscribe = this.live.subscribe({ events: (events) => this.onEvents(events) });
  }

  close(): void {
    this.unsubscribe?.();
  }

  configured(type: string): boolean {
    if (type === 'web' || type === 'command') return true;
    return !!this.notificators.get(type)?.configured();
  }

  /**
   * Notifications of the event's device that match it, each with its recipients (CONTRACT §9), read in `cache` (the
   * live cache, fresh: onEvents reads it again first when it is stale).
   */
  match(
    event: Event,
    cache: LiveCache,
    now = Date.now(),
  ): Array<{ notification: NotificationConf; users: number[] }> {
    if (now - Date.parse(event.eventTime) > MAX_EVENT_AGE_MS) return [];
    const out: Array<{ notification: NotificationConf; users: number[] }> = [];
    for (const n of cache.deviceNotifications(event.deviceId)) {
      if (n.type !== event.type) continue;
      if (event.type === 'alarm') {
        const alarms = list(n.attrs.alarms);
        if (!alarms.includes(String(event.attributes.alarm ?? ''))) continue;
      }
      const geofences = list(n.attrs.geofenceIds);
      if (geofences.length && !geofences.includes(String(event.geofenceId))) continue;
      if (n.calendarId && !this.calendarCovers(n.calendarId, Date.parse(event.eventTime))) continue;
      const viewers = cache.usersOf(event.deviceId);
      const users = cache.owners('notification', n.id, 'user').filter((u) => {
        const user = cache.users.get(u);
        return !!user && !user.disabled && (!!user.administrator || viewers.has(u));
      });
      out.push({ notification: n, users });
    }
    return out;
  }

  private calendarCovers(calendarId: number, time: number): boolean {
    return this.live.cache.calendarActive(calendarId, time);
  }

  /**
   * The stored events' notifications, delivered in the order the live core published them. While the live cache is
   * fresh and nothing waits, at once; otherwise queued behind the cache's reload on the pool (freshAsync, issue #30:
   * the main thread never waits on the store here) and whatever was queued before.
   */
  onEvents(events: Event[]): void {
    if (!this.queued && !this.live.cache.stale) return this.notify(this.live.cache, events);
    const run: Promise<void> = (this.queued ?? Promise.resolve())
      .then(async () => this.notify(await this.live.cache.freshAsync(), events))
      .catch((err: unknown) => this.ctx.log.error({ err }, 'notification matching failed'))
      .then(() => {
        if (this.queued === run) this.queued = null;
      });
    this.queued = run;
  }

  private notify(cache: LiveCache, events: Event[]): void {
    for (const event of events) {
      let matches;
      try {
        matches = this.match(event, cache);
      } catch (err) {
        this.ctx.log.error({ err }, 'notification matching failed');
        continue;
      }
      if (!matches.length) continue;
      const device = cache.device(event.deviceId);
      const geofence = event.geofenceId ? cache.geofences.get(event.geofenceId)?.name : undefined;
      const deviceName = device?.name ?? `#${event.deviceId}`;
      // each recipient reads the text in their language and speed unit (one text per combination)
      const texts = new Map<string, string>();
      const textFor = (userId: number) => {
        const attrs = cache.userAttrs.get(userId);
        const lang = recipientLanguage(attrs, cache.serverAttrs, this.ctx.config.ns);
        const speedUnit = recipientSpeedUnit(attrs, cache.serverAttrs, lang);
        const key = `${lang}|${speedUnit}`;
        let text = texts.get(key);
        if (text === undefined) {
          text = eventText(event, { deviceName, geofenceName: geofence, lang, speedUnit });
          texts.set(key, text);
        }
        return text;
      };
      for (const { notification, users } of matches) {
        for (const channel of list(notification.notificators)) {
          if (channel === 'command') {
            this.sendNotificationCommand(notification, event.deviceId);
            continue;
          }
          for (const u of users) {
            const text = textFor(u);
            if (channel === 'web')
              this.hub.pushEvent(u, { ...event, attributes: { ...event.attributes, message: text } });
            else this.deliver(channel, u, { subject: text, body: text });
          }
        }
      }
    }
  }

  /** The notification's saved command, read on the pool (issue #30), then sent to the device; failures logged. */
  private sendNotificationCommand(n: NotificationConf, deviceId: number): void {
    if (!n.commandId) return;
    findSavedCommandAsync(this.ctx.store.sql, n.commandId)
      .then((row) => row && this.deliverSavedCommand(row, deviceId))
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'notification command failed'));
  }

  private deliverSavedCommand(row: SavedCommand, deviceId: number): void {
    const command: Command = {
      id: row.id,
      deviceId,
      type: row.type,
      textChannel: !!row.textChannel,
      description: row.description,
      attributes: parseJson(row.attributes) as Command['attributes'],
    };
    deliverCommand(this.live, deviceId, command).catch((err: unknown) =>
      this.ctx.log.warn({ err }, 'notification command failed'),
    );
  }

  /** Fire-and-forget delivery through an adapter (unconfigured channels are skipped quietly). */
  private deliver(channel: string, userId: number, message: NotificationMessage): void {
    const n = this.notificators.get(channel);
    const user = this.live.cache.users.get(userId);
    if (!n || !user || !n.configured()) return;
    this.record(channel, userId, message.subject);
    n.send(user, message, this.live.cache.userAttrs.get(userId) ?? {}).catch((err: unknown) =>
      this.ctx.log.warn({ err, channel, userId }, 'notification delivery failed'),
    );
  }

  /** Sends now and waits (test/send endpoints): unconfigured ⇒ 400 "Notificator X is not configured". */
  async sendTo(channel: string, user: User, message: NotificationMessage, test = false): Promise<void> {
    if (!(NOTIFICATOR_TYPES as readonly string[]).includes(channel))
      throw badRequest(`Unknown notificator ${channel}`);
    if (channel === 'web') {
      this.hub.pushEvent(user.id, {
        id: 0,
        type: test ? 'test' : 'textMessage',
        eventTime: iso(Date.now()),
        deviceId: 0,
        positionId: 0,
        geofenceId: 0,
        maintenanceId: 0,
        attributes: { message: message.body },
      });
      return;
    }
    if (channel === 'command') throw badRequest('Notificator command cannot send messages');
    const n = this.notificators.get(channel);
    if (!n || !n.configured()) throw badRequest(`Notificator ${channel} is not configured`);
    try {
      await n.send(user, message, parseJson(user.attributes));
      this.record(channel, user.id, message.subject);
    } catch (err) {
      if (err instanceof NotConfigured) throw badRequest(err.message);
      throw badRequest(`Notificator ${channel} failed: ${(err as Error).message}`);
    }
  }
}

// Sizes here only bound the request; the SPEC §5 limits per channel are checkChannelMessage's (translated).
const sendBody = z.object({
  subject: z.string().max(2000).optional().default(''),
  digest: z.string().max(500).optional(),
  body: z.string().trim().min(1, 'body is required').max(20_000),
  priority: z.boolean().optional(),
});

/** A recipient with every field: what remains of availableChannels is what the sender may use at all. */
const ANY_RECIPIENT = {
  email: '-',
  phone: '-',
  attributes: { notificationTokens: '-', telegramChatId: '-' },
};

const userIdsQuery = z.object({ userId: queryIdList });

/** `announcement=true` lists the channels an announcement may use; any other value (or none) is false. */
const notificatorsQuery = z.object({
  announcement: z
    .unknown()
    .optional()
    .transform((v) => v === 'true'),
});

const notificatorParams = z.object({ notificator: z.string() });

export async function registerNotificationRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  live: LiveCore,
  notifier: Notifier,
): Promise<void> {
  app.get('/api/notifications/types', edge({ need: 'table' }), async (req) => {
    await requireUser(ctx, req);
    return EVENT_TYPES.map((type) => ({ type }));
  });

  const notificatorsEdge = edge({ query: notificatorsQuery, need: 'table' });
  app.get('/api/notifications/notificators', notificatorsEdge, async (req) => {
    await requireUser(ctx, req);
    await live.cache.freshAsync(); // the SMS adapter is configured by the server's attributes (smsApi.ts)
    const { announcement } = edgeValue(notificatorsQuery, req.query);
    // Only channels that can deliver: web and command always, the adapters once their settings are given.
    return NOTIFICATOR_TYPES.filter((t) => !announcement || (t !== 'web' && t !== 'command'))
      .filter((t) => notifier.notificators.get(t)?.configured() ?? true)
      .map((type) => ({ type }));
  });

  const test = async (user: User, channels: string[]) => {
    const cache = await live.cache.freshAsync();
    const lang = recipientLanguage(parseJson(user.attributes), cache.serverAttrs, ctx.config.ns);
    const text = eventText(
      {
        id: 0,
        type: 'test',
        eventTime: iso(Date.now()),
        deviceId: 0,
        positionId: 0,
        geofenceId: 0,
        maintenanceId: 0,
        attributes: {},
      },
      { deviceName: '', lang },
    );
    for (const c of channels) await notifier.sendTo(c, user, { subject: text, body: text }, true);
  };

  app.post('/api/notifications/test', edge({ body: noBody, need: 'table' }), async (req, reply) => {
    const user = await requireUser(ctx, req);
    await test(
      user,
      NOTIFICATOR_TYPES.filter((t) => t !== 'command' && notifier.configured(t)),
    );
    reply.status(204).send();
  });

  const testOneEdge = edge({ params: notificatorParams, body: noBody, need: 'table' });
  app.post('/api/notifications/test/:notificator', testOneEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const { notificator } = edgeValue(notificatorParams, req.params);
    await test(user, [notificator]);
    reply.status(204).send();
  });

  // managers and administrators with the users.command bit (the table); recipients in the query
  const sendEdge = edge({
    params: notificatorParams,
    query: userIdsQuery,
    body: sendBody,
    need: 'table',
    role: 'manager',
  });
  app.post('/api/notifications/send/:notificator', sendEdge, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const { notificator } = edgeValue(notificatorParams, req.params);
    if (!(NOTIFICATOR_TYPES as readonly string[]).includes(notificator)) {
      throw badRequest(`Unknown notificator ${notificator}`);
    }
    const msg = edgeValue(sendBody, req.body);
    // SPEC §5 direct message (domain directMessage.ts): SMS and mail are administrators' channels; subject and
    // body limits per channel; an explicitly chosen recipient must have the channel's field.
    const senderChannels: readonly string[] = availableChannels(ANY_RECIPIENT, !!user.administrator);
    if (
      (MESSAGE_CHANNELS as readonly string[]).includes(notificator) &&
      !senderChannels.includes(notificator)
    )
      throw refused(ctx, req, user, 'validation.channelNotAvailable');
    const problem = checkChannelMessage(notificator, msg.subject, msg.body);
    if (problem) {
      throw invalidInput(ctx, req, user, problem.key, {
        channel: problem.channel ?? notificator,
        max: problem.max ?? 0,
      });
    }
    const offered = (u: User) =>
      availableChannels(
        { email: u.email, phone: u.phone, attributes: parseJson(u.attributes) as Attributes },
        !!user.administrator,
      ).includes(notificator as 'web');
    const { userId } = edgeValue(userIdsQuery, req.query);
    const cache = await live.cache.freshAsync();
    let targets: number[];
    if (userId.length) {
      if (!user.administrator) {
        const managed = new Set(cache.managedUsers(user.id));
        for (const id of userId) if (!managed.has(id)) throw denied('User access denied');
      }
      targets = userId;
    } else {
      targets = user.administrator ? [...cache.users.keys()] : cache.managedUsers(user.id);
    }
    const recipients = targets
      .map((id) => cache.users.get(id))
      .filter((u): u is User => !!u && !u.temporary && !u.disabled);
    if (userId.length) {
      const missing = recipients.find((r) => !offered(r));
      if (missing) throw invalidInput(ctx, req, user, 'validation.channelNotAvailable');
    }
    const reachable = recipients.filter(offered);
    if (!notifier.configured(notificator)) throw badRequest(`Notificator ${notificator} is not configured`);
    for (const r of reachable) {
      await notifier.sendTo(notificator, r, {
        subject: msg.subject,
        body: msg.body,
        digest: msg.digest,
        priority: msg.priority,
      });
    }
    reply.status(204).send();
  });
}
