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
// here and, through the cluster, on the other processes.
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
import { AlarmsRepo } from '../db/repos/alarms.ts';
import { edge, idParams } from '../edge.ts';
import { ApiError } from '../errors.ts';
import { invalidInput } from '../invalid.ts';
import { getLiveServices } from '../live/index.ts';
import { refused, requestLanguage } from '../refusal.ts';
import { findUserById, findUsersByIds } from '../db/repos/users.ts';
import { canAccessDevice, serverFlags, usersWhoSeeDevice, visibleDeviceIds } from '../traccar/access.ts';
import { logAction } from '../traccar/audit.ts';
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
function permissionContext(ctx: AppContext, user: UserRow): PermissionContext {
  const server = serverFlags(ctx);
  return {
    user: domainUser(user),
    server: { attributes: {}, readonly: !!server.readonly },
    isPlus: ctx.config.edition === 'plus',
    ns: ctx.config.ns,
  };
}

export function registerAlarms(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.mode === 'gateway') return; // the alarms live in the embedded store
  const ns = ctx.config.ns;
  const repo = new AlarmsRepo(ctx.store.sql);
  const { live, hub } = getLiveServices(ctx);

  /** To this process's sockets: whoever sees the device, and administrators. */
  const push = (id: number, deviceId: number) => {
    if (hub.clientCount === 0) return; // nobody to tell: the alarm is not read again
    const alarm = repo.get(id);
    if (alarm) hub.pushAlarm(deviceId, JSON.stringify(alarm));
  };
  const announce = (id: number, deviceId: number) => {
    push(id, deviceId);
    ctx.cluster.publish({ t: 'alarm', id, deviceId });
  };
  ctx.cluster.subscribe((m) => {
    if (m.t === 'alarm') push(m.id, m.deviceId);
  });
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
  function visible(req: FastifyRequest, user: UserRow): Alarm {
    const { id } = req.params as { id: number };
    const alarm = repo.get(id);
    if (!alarm || !canAccessDevice(ctx, user, alarm.deviceId))
      throw new ApiError(404, t(req, user, 'alarms.notFound'), 'WebApplicationException');
    return alarm;
  }

  /** The caller, who must be an operator able to act (403 otherwise), and the alarm in a state `step` allows. */
  async function actor(req: FastifyRequest, step: AlarmStep): Promise<{ user: UserRow; alarm: Alarm }> {
    const user = await requireUser(ctx, req);
    const denial = alarmActDenial(permissionContext(ctx, user));
    if (denial) throw refused(ctx, req, user, denial);
    const alarm = visible(req, user);
    if (!alarmStepAllowed(alarm.state, step)) {
      const values = {
        state: t(req, user, `alarms.state.${alarm.state}`),
        step: t(req, user, `alarms.step.${step}`),
      };
      throw new ApiError(409, t(req, user, 'alarms.badState', values), 'IllegalStateException');
    }
    return { user, alarm };
  }

  /** Audits the step, pushes the alarm and answers it. */
  async function done(
    req: FastifyRequest,
    user: UserRow,
    alarm: Alarm,
    step: AlarmStep,
    attributes: Record<string, unknown>,
  ) {
    await logAction(ctx, req, user.id, 'alarm', 'alarm', alarm.id, {
      step,
      deviceId: alarm.deviceId,
      ...attributes,
    });
    announce(alarm.id, alarm.deviceId);
    return repo.get(alarm.id);
  }

  /** A step that another operator took first (the row changed between reading and writing it): 409. */
  function lost(req: FastifyRequest, user: UserRow, id: number, step: AlarmStep): ApiError {
    const state = repo.get(id)?.state ?? 'resolved';
    const values = {
      state: t(req, user, `alarms.state.${state}`),
      step: t(req, user, `alarms.step.${step}`),
    };
    return new ApiError(409, t(req, user, 'alarms.badState', values), 'IllegalStateException');
  }

  app.get(`/${ns}/alarms`, edge({ query: anyInput, need: 'signedIn' }), async (req) => {
    const user = await requireUser(ctx, req);
    const q = input(req, user, alarmListQuery, req.query, 'alarms.badFilter');
    return repo.list({
      deviceIds: user.administrator ? null : visibleDeviceIds(ctx, user),
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
    if (!isMonitoringOperator(permissionContext(ctx, user)))
      throw refused(ctx, req, user, 'alarms.notOperator');
    const alarm = visible(req, user);
    const users = findUsersByIds(ctx.store.sql, usersWhoSeeDevice(ctx, alarm.deviceId));
    return alarmContacts(users.filter((u) => !u.disabled));
  });

  const now = () => new Date().toISOString();
  const step = { params: idParams, body: anyInput, anyBody: true, need: 'signedIn' as const };

  app.post(`/${ns}/alarms/:id/ack`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'ack');
    const body = input(req, user, alarmAckBody, req.body, 'alarms.noteRequired');
    const time = now();
    if (!repo.acknowledge(alarm.id, user.id, time)) throw lost(req, user, alarm.id, 'ack');
    if (body.note) repo.addNote(alarm.id, user.id, body.note, time);
    return done(req, user, alarm, 'ack', body.note ? { note: body.note } : {});
  });

  app.post(`/${ns}/alarms/:id/assign`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'assign');
    const body = input(req, user, alarmAssignBody, req.body, 'alarms.badAssignee');
    const target = findUserById(ctx.store.sql, body.userId) as UserRow | undefined;
    if (
      !target ||
      target.disabled ||
      !isMonitoringOperator(permissionContext(ctx, target)) ||
      !canAccessDevice(ctx, target, alarm.deviceId)
    )
      throw invalidInput(ctx, req, user, 'alarms.badAssignee');
    if (!repo.assign(alarm.id, target.id)) throw lost(req, user, alarm.id, 'assign');
    return done(req, user, alarm, 'assign', { userId: target.id });
  });

  app.post(`/${ns}/alarms/:id/note`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'note');
    const body = input(req, user, alarmNoteBody, req.body, 'alarms.noteRequired');
    repo.addNote(alarm.id, user.id, body.text, now());
    return done(req, user, alarm, 'note', { note: body.text });
  });

  app.post(`/${ns}/alarms/:id/resolve`, edge(step), async (req) => {
    const { user, alarm } = await actor(req, 'resolve');
    const body = input(req, user, alarmResolveBody, req.body, 'alarms.outcomeRequired');
    const time = now();
    if (!repo.resolve(alarm.id, user.id, body.outcome, time)) throw lost(req, user, alarm.id, 'resolve');
    if (body.note) repo.addNote(alarm.id, user.id, body.note, time);
    return done(req, user, alarm, 'resolve', {
      outcome: body.outcome,
      ...(body.note ? { note: body.note } : {}),
    });
  });

  app.get(
    `/${ns}/reports/alarms`,
    edge({ query: anyInput, need: 'signedIn' }),
    async (req: FastifyRequest, reply: FastifyReply) => {
      const user = await requireUser(ctx, req);
      if (!isMonitoringOperator(permissionContext(ctx, user)))
        throw refused(ctx, req, user, 'alarms.notOperator');
      const q = input(req, user, alarmReportQuery, req.query, 'validation.checkFormData');
      const rows = repo.reportRows(q.from, q.to, user.administrator ? null : visibleDeviceIds(ctx, user));
      const operators = [...new Set(rows.flatMap((r) => [r.ackUserId, r.resolveUserId]))].filter(
        (id): id is number => id !== null,
      );
      const report = alarmReport(rows, repo.userNames(operators));
      if (!wantsSheet(req)) return report;
      const body = await alarmWorkbook(report, requestLanguage(ctx, req, user));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="report-alarms.xlsx"')
        .send(body);
    },
  );
}
