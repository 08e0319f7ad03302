// The monitoring center's alarm queue (issue #32, docs/monitoring.md), embedded mode:
//   GET  /{ns}/alarms                 unresolved alarms of the devices the caller sees (severity, then age);
//                                     ?all=true with handled ones; filters state, type, deviceId, from, to, limit
//   GET  /{ns}/alarms/{id}            one alarm with its notes
//   GET  /{ns}/alarms/{id}/contacts   whom to call: the device's users with a phone (operators; domain alarmContacts)
//   POST /{ns}/alarms/{id}/ack        {note?}            open → acknowledged (operators)
//   POST /{ns}/alarms/{id}/assign     {userId}           to an operator who sees the device (operators)
//   POST /{ns}/alarms/{id}/note       {text}             (operators)
//   POST /{ns}/alarms/{id}/resolve    {outcome, note?}   open or acknowledged → resolved (operators)
//   GET  /{ns}/reports/alarms?from&to  counts per type, time to acknowledge and resolve, per operator (operators;
//                                     Excel with the sheet Accept header)
// Operators are administrators and users with the opt-in monitoring bits (domain alarms.ts); other users read the
// alarms of their own devices. Every step is audited (action 'alarm') and pushed to the sockets (message `alarms`),
// here and, through the cluster, on the other processes. The store is read and written asynchronously (issue #30,
// session 33): a step's write, its note and its audit action commit together (inTransaction) or not at all.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  alarmAckBody,
  alarmActDenial,
  alarmContacts,
  alarmAssignBody,
  alarmListQuery,
  alarmNoteBody,
  alarmReport,
  alarmReportQuery,
  alarmResolveBody,
  alarmStepAllowed,
  formatMessage,
  isMessageKey,
  isMonitoringOperator,
  type Alarm,
  type AlarmStep,
  type MessageKey,
  type PermissionContext,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import type { SqlDatabase } from '../db/sql.ts';
import { AlarmsRepo } from '../db/repos/alarms.ts';
import { inTransaction } from '../db/repos/query.ts';
import { edge, idParams } from '../edge.ts';
import { ApiError } from '../errors.ts';
import { invalidInput } from '../invalid.ts';
import { getLiveServices } from '../live/index.ts';
import type { SocketHub } from '../live/socket.ts';
import { refused, requestLanguage } from '../refusal.ts';
import { findUserByIdAsync, findUsersByIdsAsync } from '../db/repos/users.ts';
import { canAccessDevice, serverFlagsAsync, usersWhoSeeDevice, visibleDeviceIds } from '../traccar/access.ts';
import { logActionIn } from '../traccar/audit.ts';
import { requireUser, type UserRow } from '../traccar/auth.ts';
import { domainUser } from '../traccar/model.ts';
import { AlarmDetector } from './alarmsDetect.ts';
import { alarmWorkbook, wantsSheet } from './alarmsReport.ts';

/** Whatever comes: the handlers parse it with the domain schemas and answer bad input in the caller's language. */
const anyInput = z.unknown();

const detectors = new WeakMap<AppContext, AlarmDetector>();

/** The app's alarm detector (tests run the signal-lost check with their own clock). */
export function alarmDetector(ctx: AppContext): AlarmDetector | undefined {
  return detectors.get(ctx);
}

/** The domain's view of the caller (server flags from the store). */
async function permissionContext(ctx: AppContext, user: UserRow): Promise<PermissionContext> {
  const server = await serverFlagsAsync(ctx);
  return {
    user: domainUser(user),
    server: { attributes: {}, readonly: !!server.readonly },
    isPlus: ctx.config.edition === 'plus',
    ns: ctx.config.ns,
  };
}

/**
 * Pushes an alarm to this process's sockets (whoever sees the device, and administrators) and, through the cluster,
 * to the other processes'; the pushes the cluster relays go to this process's sockets. They go out one after the
 * other in the order they were asked for (each reads the alarm after the previous one was sent), so a socket never
 * gets an older state of an alarm after a newer one; a failed read is logged.
 */
function alarmAnnouncer(
  ctx: AppContext,
  repo: AlarmsRepo,
  hub: SocketHub,
): (id: number, deviceId: number) => void {
  let pushes: Promise<void> = Promise.resolve();
  const push = (id: number, deviceId: number) => {
    pushes = pushes.then(async () => {
      if (hub.clientCount === 0) return; // nobody to tell: the alarm is not read again
      try {
        const alarm = await repo.get(id);
        if (alarm) hub.pushAlarm(deviceId, JSON.stringify(alarm));
      } catch (err) {
        ctx.log.error({ err, alarm: id }, 'alarm push failed');
      }
    });
  };
  ctx.cluster.subscribe((m) => {
    if (m.t === 'alarm') push(m.id, m.deviceId);
  });
  return (id, deviceId) => {
    push(id, deviceId);
    ctx.cluster.publish({ t: 'alarm', id, deviceId });
  };
}

export function registerAlarms(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.mode === 'gateway') return; // the alarms live in the embedded store
  const ns = ctx.config.ns;
  const repo = new AlarmsRepo(ctx.store.sql);
  const { live, hub } = getLiveServices(ctx);

  const announce = alarmAnnouncer(ctx, repo, hub);
  const detector = new AlarmDetector(ctx, live, repo, announce);
  detectors.set(ctx, detector);
  detector.start();
  ctx.onClose.push(async () => detector.stop());

  const t = (req: FastifyRequest, user: UserRow, key: MessageKey, values: Record<string, string> = {}) =>
    formatMessage(key, requestLanguage(ctx, req, user), values);

  /** Input checked with a domain schema; bad input ⇒ 400 with the first problem's message (else `fallback`). */
  function input<S extends z.ZodType>(
    req: FastifyRequest,
    user: UserRow,
    schema: S,
    value: unknown,
    fallback: MessageKey,
  ): z.output<S> {
    const r = schema.safeParse(value ?? {});
    if (r.success) return r.data;
    const message = r.error.issues[0]?.message ?? '';
    throw invalidInput(ctx, req, user, isMessageKey(message) ? message : fallback);
  }

  /** The alarm `id` if the caller sees its device, else 404 (a foreign alarm looks like a missing one). */
  async function visible(req: FastifyRequest, user: UserRow): Promise<Alarm> {
    const { id } = req.params as { id: number };
    const alarm = await repo.get(id);
    if (!alarm || !(await canAccessDevice(ctx, user, alarm.deviceId)))
      throw new ApiError(404, t(req, user, 'alarms.notFound'), 'WebApplicationException');
    return alarm;
  }

  /** The caller, who must be an operator able to act (403 otherwise), and the alarm in a state `step` allows. */
  async function actor(req: FastifyRequest, step: AlarmStep): Promise<{ user: UserRow; alarm: Alarm }> {
    const user = await requireUser(ctx, req);
    const denial = alarmActDenial(await permissionContext(ctx, user));
    if (denial) throw refused(ctx, req, user, denial);
    const alarm = await visible(req, user);
    if (!alarmStepAllowed(alarm.state, step)) {
      const values = {
        state: t(req, user, `alarms.state.${alarm.state}`),
        step: t(req, user, `alarms.step.${step}`),
      };
      throw new ApiError(409, t(req, user, 'alarms.badState', values), 'IllegalStateException');
    }
    return { user, alarm };
  }

  /**
   * Runs a step's writes (`write`: false when another operator took the step first: 409) and its audit action in one
   * transaction, then pushes the alarm and answers it.
   */
  async function done(
    req: FastifyRequest,
    user: UserRow,
    alarm: Alarm,
    step: AlarmStep,
    attributes: Record<string, unknown>,
    write: (tx: SqlDatabase) => Promise<boolean>,
  ) {
    const taken = await inTransaction(ctx.store.sql, async (tx) => {
      if (!(await write(tx))) return false;
      await logActionIn(tx, req, user.id, 'alarm', 'alarm', alarm.id, {
        step,
        deviceId: alarm.deviceId,
        ...attributes,
      });
      return true;
    });
    if (!taken) throw await lost(req, user, alarm.id, step);
    announce(alarm.id, alarm.deviceId);
    return repo.get(alarm.id);
  }

  /** A step that another operator took first (the row changed between reading and writing it): 409. */
  async function lost(req: FastifyRequest, user: UserRow, id: number, step: AlarmStep): Promise<ApiError> {
    const state = (await repo.get(id))?.state ?? 'resolved';
    const values = {
      state: t(req, user, `alarms.state.${state}`),
      step: t(req, user, `alarms.step.${step}`),
    };
    return new ApiError(409, t(req, user, 'alarms.badState', values), 'IllegalStateException');
  }

  app.get(`/${ns}/alarms`, edge({ query: anyInput, need: 'signedIn' }), async (req) => {
    const user = await requireUser(ctx, req);
    const q = input(req, user, alarmListQuery, req.query, 'alarms.badFilter');
    return await repo.list({
      deviceIds: user.administrator ? null : await visibleDeviceIds(ctx, user),
      all: q.all === true,
      state: q.state,
      type: q.type,
      deviceId: q.deviceId,
      from: q.from,
      to: q.to,
      limit: q.limit ?? 500,
    });
  });

  app.get(`/${ns}/alarms/:id`, edge({ params: idParams, need: 'signedIn' }), async (req) =>
    visible(req, await requireUser(ctx, req)),
  );

  // Every operator may call the customer, whether or not it manages users (GET /api/users?deviceId would refuse
  // an operator without a user limit): the names and phones of those who see the vehicle, nothing else of them.
  app.get(`/${ns}/alarms/:id/contacts`, edge({ params: idParams, need: 'signedIn' }), async (req) => {
    const user = await requireUser(ctx, req);
    if (!isMonitoringOperator(await permissionContext(ctx, user)))
      throw refused(ctx, req, user, 'alarms.notOperator');
    const alarm = await visible(req, user);
    const users = await findUsersByIdsAsync(ctx.store.sql, await usersWhoSeeDevice(ctx, alarm.deviceId));
    return alarmContacts(users.filter((u) => !u.disabled));
  });

  const now = () => new Date().toISOString();
  const step = { params: idParams, body: anyInput, anyBody: true, need: 'signedIn' as const };

  app.post(`/${ns}/alarms/:id/ack`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'ack');
    const body = input(req, user, alarmAckBody, req.body, 'alarms.noteRequired');
    const time = now();
    return done(req, user, alarm, 'ack', body.note ? { note: body.note } : {}, async (tx) => {
      if (!(await repo.acknowledge(alarm.id, user.id, time, tx))) return false;
      if (body.note) await repo.addNote(alarm.id, user.id, body.note, time, tx);
      return true;
    });
  });

  app.post(`/${ns}/alarms/:id/assign`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'assign');
    const body = input(req, user, alarmAssignBody, req.body, 'alarms.badAssignee');
    const target = (await findUserByIdAsync(ctx.store.sql, body.userId)) as UserRow | undefined;
    if (
      !target ||
      target.disabled ||
      !isMonitoringOperator(await permissionContext(ctx, target)) ||
      !(await canAccessDevice(ctx, target, alarm.deviceId))
    )
      throw invalidInput(ctx, req, user, 'alarms.badAssignee');
    return done(req, user, alarm, 'assign', { userId: target.id }, (tx) =>
      repo.assign(alarm.id, target.id, tx),
    );
  });

  app.post(`/${ns}/alarms/:id/note`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'note');
    const body = input(req, user, alarmNoteBody, req.body, 'alarms.noteRequired');
    return done(req, user, alarm, 'note', { note: body.text }, async (tx) => {
      await repo.addNote(alarm.id, user.id, body.text, now(), tx);
      return true;
    });
  });

  app.post(`/${ns}/alarms/:id/resolve`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'resolve');
    const body = input(req, user, alarmResolveBody, req.body, 'alarms.outcomeRequired');
    const time = now();
    const attributes = { outcome: body.outcome, ...(body.note ? { note: body.note } : {}) };
    return done(req, user, alarm, 'resolve', attributes, async (tx) => {
      if (!(await repo.resolve(alarm.id, user.id, body.outcome, time, tx))) return false;
      if (body.note) await repo.addNote(alarm.id, user.id, body.note, time, tx);
      return true;
    });
  });

  app.get(
    `/${ns}/reports/alarms`,
    edge({ query: anyInput, need: 'signedIn' }),
    async (req: FastifyRequest, reply: FastifyReply) => {
      const user = await requireUser(ctx, req);
      if (!isMonitoringOperator(await permissionContext(ctx, user)))
        throw refused(ctx, req, user, 'alarms.notOperator');
      const q = input(req, user, alarmReportQuery, req.query, 'validation.checkFormData');
      const rows = await repo.reportRows(
        q.from,
        q.to,
        user.administrator ? null : await visibleDeviceIds(ctx, user),
      );
      const operators = [...new Set(rows.flatMap((r) => [r.ackUserId, r.resolveUserId]))].filter(
        (id): id is number => id !== null,
      );
      const report = alarmReport(rows, await repo.userNames(operators));
      if (!wantsSheet(req)) return report;
      const body = await alarmWorkbook(report, requestLanguage(ctx, req, user));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="report-alarms.xlsx"')
        .send(body);
    },
  );
}
