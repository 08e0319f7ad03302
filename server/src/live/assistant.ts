// The fleet assistant of /asistente-demo (issue #11; docs/assistant.md): POST /{ns}/assistant {text} answers a
// question about the caller's own vehicles, parsed by the domain's parseQuestion in pt-BR, es or en-US, in the
// caller's language, from this server's data (no external service). The answer carries its data for the page:
// a card of vehicles (each with its position when known) for a map link.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  assistantDenial,
  formatDistance,
  formatSpeed,
  isQrDriver,
  isShared,
  parseQuestion,
  periodStart,
  resolveUnits,
  timeZoneOffset,
  type Attributes,
  type MessageKey,
  type MessageLocale,
  type ParsedQuestion,
  type ServerLike,
  formatMessage,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { deviceCards, type DeviceCard } from '../db/repos/devices.ts';
import { edge, edgeValue } from '../edge.ts';
import { refused, refusedPermission, requestLanguage } from '../refusal.ts';
import { accessibleDevicesOf, serverFlagsAsync } from '../traccar/access.ts';
import { requireUser, type UserRow } from '../traccar/auth.ts';
import { domainUser, parseAttributes } from '../traccar/model.ts';
import type { LiveCore } from './ingest.ts';
import {
  fleetAnswer,
  overLimitAnswer,
  speedAnswer,
  type AssistantAnswer,
  type AssistantItem,
  type FleetTools,
} from './assistantFleet.ts';
import { whoDroveAnswer } from './assistantDrivers.ts';
import {
  distanceAnswer,
  offlineAnswer,
  oneVehicle,
  overspeedEventsAnswer,
  whereIsAnswer,
  type QuestionRange,
} from './assistantVehicle.ts';

const body = z.object({ text: z.string().trim().min(1).max(500) });

interface DeviceRow {
  id: number;
  name: string;
  uniqueId: string;
  attributes: string | null;
}

const LIST_MAX = 10;

function validZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || !tz) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The server's restriction flags and attributes as the domain's permission rules read them. */
async function serverLike(ctx: AppContext): Promise<ServerLike> {
  const f = await serverFlagsAsync(ctx);
  return {
    attributes: parseAttributes(f.attributes) as Attributes,
    readonly: !!f.readonly,
    deviceReadonly: !!f.deviceReadonly,
    limitCommands: !!f.limitCommands,
    disableReports: !!f.disableReports,
  };
}

export function registerAssistant(app: FastifyInstance, ctx: AppContext, live: LiveCore): void {
  const ns = ctx.config.ns;

  // any signed-in user but shared guests and QR drivers (refused below); bad input: the catalogue's 'required'
  const askEdge = edge({ body, need: 'signedIn', invalid: 'validation.required' });
  app.post(`/${ns}/assistant`, askEdge, async (req: FastifyRequest): Promise<AssistantAnswer> => {
    const user = await requireUser(ctx, req);
    const userAttrs = parseAttributes(user.attributes) as Attributes;
    if (
      isShared({ temporary: !!user.temporary, attributes: userAttrs }) ||
      isQrDriver({ attributes: userAttrs }, ns)
    )
      throw refused(ctx, req, user, 'assistant.unavailable');
    const { text } = edgeValue(body, req.body);
    // Report questions need what the summary report needs (issue #27): the same rule, the same refusal.
    const denial = assistantDenial(
      { user: domainUser(user), server: await serverLike(ctx), isPlus: ctx.config.edition === 'plus', ns },
      parseQuestion(text).intent,
    );
    if (denial?.key === 'denied.permission') {
      throw refusedPermission(ctx, req, user, denial.requirement.area, denial.requirement.action);
    }
    if (denial) throw refused(ctx, req, user, denial.key);
    return await answer(ctx, live, req, user, userAttrs, text, await deviceCards(ctx.store.sql));
  });
}

async function answer(
  ctx: AppContext,
  live: LiveCore,
  req: FastifyRequest,
  user: UserRow,
  userAttrs: Attributes,
  text: string,
  cards: DeviceCard[],
): Promise<AssistantAnswer> {
  const lang: MessageLocale = requestLanguage(ctx, req, user);
  const t = (key: MessageKey, values: Record<string, string | number> = {}) =>
    formatMessage(key, lang, values);
  const cache = await live.cache.freshAsync(); // on the pool (PostgreSQL): the main thread free (issue #30)
  const serverAttrs = cache.serverAttrs as Attributes;
  const units = resolveUnits({ attributes: userAttrs }, { attributes: serverAttrs }, lang);
  const tz = [userAttrs.timezone, serverAttrs.timezone].find(validZone) ?? 'UTC';
  const time = new Intl.DateTimeFormat(lang, { timeZone: tz, dateStyle: 'short', timeStyle: 'short' });

  const devices = (await accessibleDevicesOf(ctx, user, cards as DeviceRow[])).map((d) => {
    const a = parseAttributes(d.attributes) as Attributes;
    const plate = typeof a.placa === 'string' ? a.placa : typeof a.plate === 'string' ? a.plate : null;
    return { id: d.id, name: d.name, uniqueId: d.uniqueId, plate };
  });
  await live.loadLatestAsync(devices.map((d) => d.id)); // on the pool where memory lacks them (issue #30)
  const q = parseQuestion(text);
  const names = (list: Array<{ name: string }>) =>
    list
      .slice(0, LIST_MAX)
      .map((d) => d.name)
      .join(', ') + (list.length > LIST_MAX ? ` (+${list.length - LIST_MAX})` : '');
  const item = (d: { id: number; name: string }, detail: string): AssistantItem => {
    const p = live.latestInMemory(d.id);
    return {
      deviceId: d.id,
      name: d.name,
      detail,
      latitude: p?.latitude ?? null,
      longitude: p?.longitude ?? null,
    };
  };
  const status = (id: number) => live.deviceJson(id)?.status ?? 'unknown';
  const tools: FleetTools = {
    devices,
    t,
    item,
    names,
    latest: (id) => live.latestInMemory(id),
    status,
    speed: (knots) => formatSpeed(knots, units.speedUnit, lang),
    distance: (meters) => formatDistance(meters, units.distanceUnit, lang, 1),
    time: (iso) => time.format(new Date(iso)),
  };
  const fleet = fleetAnswer(q.intent, tools);
  if (fleet) return fleet;
  const sql = ctx.store.sql;
  const range = (): QuestionRange => questionRange(q.period, tz, t);
  if (q.intent === 'offline') return offlineAnswer(tools);
  if (q.intent === 'overspeed')
    return q.speedKmh !== null
      ? await overLimitAnswer(sql, q.speedKmh, range(), tools)
      : await overspeedEventsAnswer(sql, range(), tools);
  if (
    q.intent !== 'whereIs' &&
    q.intent !== 'speedOf' &&
    q.intent !== 'whoDrove' &&
    q.intent !== 'distanceToday'
  )
    return { intent: 'unknown', text: t('assistant.unknown'), items: [] };
  const d = oneVehicle(text, q, devices, tools);
  if ('intent' in d) return d;
  if (q.intent === 'whereIs') return whereIsAnswer(d, tools);
  if (q.intent === 'speedOf') return speedAnswer(d, tools);
  if (q.intent === 'whoDrove') return await whoDroveAnswer(sql, d, range(), tools);
  return await distanceAnswer(sql, d, q, range(), tools);
}

/** The question's period as ISO bounds, days cut in the caller's time zone, and its words. */
function questionRange(
  period: ParsedQuestion['period'],
  tz: string,
  t: (key: MessageKey) => string,
): QuestionRange {
  const now = Date.now();
  const offset = timeZoneOffset(now, tz) / 60_000;
  const from = new Date(periodStart(period, now, offset)).toISOString();
  const to =
    period === 'yesterday'
      ? new Date(periodStart('today', now, offset)).toISOString()
      : new Date(now + 1).toISOString();
  const label = t(
    period === 'today'
      ? 'assistant.periodToday'
      : period === 'yesterday'
        ? 'assistant.periodYesterday'
        : 'assistant.periodWeek',
  );
  return { from, to, label };
}
