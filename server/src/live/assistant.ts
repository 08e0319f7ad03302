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
  matchDevices,
  parseQuestion,
  periodStart,
  resolveUnits,
  timeZoneOffset,
  type Attributes,
  type MessageKey,
  type MessageLocale,
  type ServerLike,
  formatMessage,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { jsonField } from '../db/sql.ts';
import { deviceCards } from '../db/repos/devices.ts';
import { eventCountsByDevice } from '../db/repos/events.ts';
import { positionValueAtEdge } from '../db/repos/positions.ts';
import { edge, edgeValue } from '../edge.ts';
import { refused, refusedPermission, requestLanguage } from '../refusal.ts';
import { canAccessDevice, serverFlags } from '../traccar/access.ts';
import { requireUser, type UserRow } from '../traccar/auth.ts';
import { domainUser, parseAttributes } from '../traccar/model.ts';
import type { LiveCore } from './ingest.ts';
import {
  fleetAnswer,
  isMoving,
  overLimitAnswer,
  speedAnswer,
  type AssistantAnswer,
  type AssistantItem,
  type FleetTools,
} from './assistantFleet.ts';
import { whoDroveAnswer } from './assistantDrivers.ts';

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
function serverLike(ctx: AppContext): ServerLike {
  const f = serverFlags(ctx);
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
      { user: domainUser(user), server: serverLike(ctx), isPlus: ctx.config.edition === 'plus', ns },
      parseQuestion(text).intent,
    );
    if (denial?.key === 'denied.permission') {
      throw refusedPermission(ctx, req, user, denial.requirement.area, denial.requirement.action);
    }
    if (denial) throw refused(ctx, req, user, denial.key);
    return answer(ctx, live, req, user, userAttrs, text);
  });
}

function answer(
  ctx: AppContext,
  live: LiveCore,
  req: FastifyRequest,
  user: UserRow,
  userAttrs: Attributes,
  text: string,
): AssistantAnswer {
  const lang: MessageLocale = requestLanguage(ctx, req, user);
  const t = (key: MessageKey, values: Record<string, string | number> = {}) =>
    formatMessage(key, lang, values);
  const cache = live.cache.fresh();
  const serverAttrs = cache.serverAttrs as Attributes;
  const units = resolveUnits({ attributes: userAttrs }, { attributes: serverAttrs }, lang);
  const tz = [userAttrs.timezone, serverAttrs.timezone].find(validZone) ?? 'UTC';
  const time = new Intl.DateTimeFormat(lang, { timeZone: tz, dateStyle: 'short', timeStyle: 'short' });

  const devices = (deviceCards(ctx.store.sql) as DeviceRow[])
    .filter((d) => canAccessDevice(ctx, user, d.id))
    .map((d) => {
      const a = parseAttributes(d.attributes) as Attributes;
      const plate = typeof a.placa === 'string' ? a.placa : typeof a.plate === 'string' ? a.plate : null;
      return { id: d.id, name: d.name, uniqueId: d.uniqueId, plate };
    });
  const q = parseQuestion(text);
  const names = (list: Array<{ name: string }>) =>
    list
      .slice(0, LIST_MAX)
      .map((d) => d.name)
      .join(', ') + (list.length > LIST_MAX ? ` (+${list.length - LIST_MAX})` : '');
  const item = (d: { id: number; name: string }, detail: string): AssistantItem => {
    const p = live.latestPosition(d.id);
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
    latest: (id) => live.latestPosition(id),
    status,
    speed: (knots) => formatSpeed(knots, units.speedUnit, lang),
    time: (iso) => time.format(new Date(iso)),
  };
  const fleet = fleetAnswer(q.intent, tools);
  if (fleet) return fleet;
  /** The question's period as ISO bounds, days cut in the caller's time zone, and its words. */
  const range = () => {
    const now = Date.now();
    const offset = timeZoneOffset(now, tz) / 60_000;
    const from = new Date(periodStart(q.period, now, offset)).toISOString();
    const to =
      q.period === 'yesterday'
        ? new Date(periodStart('today', now, offset)).toISOString()
        : new Date(now + 1).toISOString();
    const label = t(
      q.period === 'today'
        ? 'assistant.periodToday'
        : q.period === 'yesterday'
          ? 'assistant.periodYesterday'
          : 'assistant.periodWeek',
    );
    return { from, to, label };
  };

  /** The one vehicle a question names, or the answer that asks which. */
  const oneVehicle = (): { id: number; name: string } | AssistantAnswer => {
    const found = matchDevices(text, q.subject, devices);
    if (found.length === 1) return found[0]!;
    if (found.length > 1)
      return {
        intent: q.intent,
        text: t('assistant.ambiguous', { names: names(found) }),
        items: found.slice(0, LIST_MAX).map((d) => item(d, '')),
      };
    if (!q.subject)
      return {
        intent: q.intent,
        text: t('assistant.whichVehicle', { names: names(devices.slice(0, 3)) }),
        items: [],
      };
    return { intent: q.intent, text: t('assistant.notFound', { name: q.subject }), items: [] };
  };

  switch (q.intent) {
    case 'whereIs': {
      const d = oneVehicle();
      if ('intent' in d) return d;
      const p = live.latestPosition(d.id);
      if (!p)
        return { intent: q.intent, text: t('assistant.noPosition', { name: d.name }), items: [item(d, '')] };
      const place = p.address || `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}`;
      const moving = isMoving(p);
      const speed = moving
        ? t('assistant.moving', { speed: formatSpeed(p.speed, units.speedUnit, lang) })
        : t('assistant.stopped');
      const st = status(d.id);
      const statusText = t(
        st === 'online'
          ? 'assistant.status.online'
          : st === 'offline'
            ? 'assistant.status.offline'
            : 'assistant.status.unknown',
      );
      const when = time.format(new Date(p.fixTime));
      return {
        intent: q.intent,
        text: t('assistant.whereIs', { name: d.name, place, status: statusText, speed, time: when }),
        items: [item(d, `${place} · ${when}`)],
      };
    }
    case 'offline': {
      const off = devices.filter((d) => status(d.id) !== 'online');
      if (!off.length)
        return { intent: q.intent, text: t('assistant.noneOffline', { total: devices.length }), items: [] };
      return {
        intent: q.intent,
        text: t('assistant.offline', { count: off.length, total: devices.length, names: names(off) }),
        items: off.slice(0, LIST_MAX).map((d) => {
          const last = live.latestPosition(d.id);
          return item(
            d,
            last ? time.format(new Date(last.fixTime)) : t('assistant.noPosition', { name: d.name }),
          );
        }),
      };
    }
    case 'speedOf': {
      const d = oneVehicle();
      return 'intent' in d ? d : speedAnswer(d, tools);
    }
    case 'whoDrove': {
      const d = oneVehicle();
      return 'intent' in d ? d : whoDroveAnswer(ctx.store.sql, d, range(), tools);
    }
    case 'distanceToday': {
      const d = oneVehicle();
      if ('intent' in d) return d;
      const { from, to, label } = range();
      const totalDistance = jsonField(ctx.store.sql.dialect, 'attributes', 'totalDistance', true);
      const total = (order: 'asc' | 'desc') =>
        positionValueAtEdge(ctx.store.sql, totalDistance, d.id, from, to, order);
      const first = total('asc');
      const last = total('desc');
      const meters = first && last ? Math.max(0, Number(last.t ?? 0) - Number(first.t ?? 0)) : 0;
      const distance = formatDistance(meters, units.distanceUnit, lang, 1);
      return {
        intent: q.intent,
        text:
          q.period === 'today'
            ? t('assistant.distanceToday', { name: d.name, distance })
            : t('assistant.distance', { name: d.name, distance, period: label }),
        items: [item(d, distance)],
      };
    }
    case 'overspeed': {
      const { from, to, label } = range();
      if (q.speedKmh !== null) return overLimitAnswer(ctx.store.sql, q.speedKmh, range(), tools);
      const speed = jsonField(ctx.store.sql.dialect, 'attributes', 'speed', true);
      const rows = eventCountsByDevice(ctx.store.sql, 'deviceOverspeed', speed, from, to);
      const byId = new Map(devices.map((d) => [d.id, d]));
      const hits = rows
        .filter((r) => byId.has(r.deviceId))
        .map((r) => ({ ...r, device: byId.get(r.deviceId)! }));
      const period = label;
      if (!hits.length) return { intent: q.intent, text: t('assistant.noOverspeed', { period }), items: [] };
      return {
        intent: q.intent,
        text: t('assistant.overspeed', {
          count: hits.length,
          period,
          names: names(hits.map((h) => h.device)),
        }),
        items: hits
          .slice(0, LIST_MAX)
          .map((h) =>
            item(
              h.device,
              `${h.n}× · ${h.top ? formatSpeed(Number(h.top), units.speedUnit, lang) : ''}`.replace(
                / · $/,
                '',
              ),
            ),
          ),
      };
    }
    default:
      return { intent: 'unknown', text: t('assistant.unknown'), items: [] };
  }
}
