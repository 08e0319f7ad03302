// The fleet assistant's answers about one vehicle's place and distance and the fleet's offline list and overspeed
// events (issue #11): where a vehicle is, which are offline, how far one went in the period and who went over the
// speed limit. live/assistant.ts parses the question and builds the tools; this file only answers.
import { matchDevices, type AssistantDevice, type ParsedQuestion } from '@rastro/domain';
import type { SqlDatabase } from '../db/sql.ts';
import { jsonField } from '../db/sql.ts';
import { eventCountsByDevice } from '../db/repos/events.ts';
import { positionValueAtEdge } from '../db/repos/positions.ts';
import { isMoving, type AssistantAnswer, type FleetTools } from './assistantFleet.ts';

const LIST_MAX = 10;

interface Vehicle {
  id: number;
  name: string;
}

/** The question's period: ISO bounds and its words. */
export interface QuestionRange {
  from: string;
  to: string;
  label: string;
}

/** The one vehicle a question names, or the answer that asks which. */
export function oneVehicle(
  text: string,
  q: ParsedQuestion,
  devices: AssistantDevice[],
  tools: FleetTools,
): Vehicle | AssistantAnswer {
  const { t, names } = tools;
  const found = matchDevices(text, q.subject, devices);
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    return {
      intent: q.intent,
      text: t('assistant.ambiguous', { names: names(found) }),
      items: found.slice(0, LIST_MAX).map((d) => tools.item(d, '')),
    };
  if (!q.subject)
    return {
      intent: q.intent,
      text: t('assistant.whichVehicle', { names: names(devices.slice(0, 3)) }),
      items: [],
    };
  return { intent: q.intent, text: t('assistant.notFound', { name: q.subject }), items: [] };
}

/** Where one vehicle is: its place, status, motion and the time of its latest position. */
export function whereIsAnswer(d: Vehicle, tools: FleetTools): AssistantAnswer {
  const { t } = tools;
  const p = tools.latest(d.id);
  if (!p)
    return {
      intent: 'whereIs',
      text: t('assistant.noPosition', { name: d.name }),
      items: [tools.item(d, '')],
    };
  const place = p.address || `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}`;
  const speed = isMoving(p) ? t('assistant.moving', { speed: tools.speed(p.speed) }) : t('assistant.stopped');
  const st = tools.status(d.id);
  const statusText = t(
    st === 'online'
      ? 'assistant.status.online'
      : st === 'offline'
        ? 'assistant.status.offline'
        : 'assistant.status.unknown',
  );
  const when = tools.time(p.fixTime);
  return {
    intent: 'whereIs',
    text: t('assistant.whereIs', { name: d.name, place, status: statusText, speed, time: when }),
    items: [tools.item(d, `${place} · ${when}`)],
  };
}

/** The vehicles not online, each with the time of its latest position. */
export function offlineAnswer(tools: FleetTools): AssistantAnswer {
  const { devices, t } = tools;
  const off = devices.filter((d) => tools.status(d.id) !== 'online');
  if (!off.length)
    return { intent: 'offline', text: t('assistant.noneOffline', { total: devices.length }), items: [] };
  return {
    intent: 'offline',
    text: t('assistant.offline', { count: off.length, total: devices.length, names: tools.names(off) }),
    items: off.slice(0, LIST_MAX).map((d) => {
      const last = tools.latest(d.id);
      return tools.item(d, last ? tools.time(last.fixTime) : t('assistant.noPosition', { name: d.name }));
    }),
  };
}

/** How far one vehicle went in the period, from its odometer (totalDistance) at the period's edges. */
export async function distanceAnswer(
  sql: SqlDatabase,
  d: Vehicle,
  q: ParsedQuestion,
  range: QuestionRange,
  tools: FleetTools,
): Promise<AssistantAnswer> {
  const totalDistance = jsonField(sql.dialect, 'attributes', 'totalDistance', true);
  const total = (order: 'asc' | 'desc') =>
    positionValueAtEdge(sql, totalDistance, d.id, range.from, range.to, order);
  const [first, last] = await Promise.all([total('asc'), total('desc')]);
  const meters = first && last ? Math.max(0, Number(last.t ?? 0) - Number(first.t ?? 0)) : 0;
  const distance = tools.distance(meters);
  return {
    intent: q.intent,
    text:
      q.period === 'today'
        ? tools.t('assistant.distanceToday', { name: d.name, distance })
        : tools.t('assistant.distance', { name: d.name, distance, period: range.label }),
    items: [tools.item(d, distance)],
  };
}

/** The vehicles with overspeed events in the period, with how many and their top speed. */
export async function overspeedEventsAnswer(
  sql: SqlDatabase,
  range: QuestionRange,
  tools: FleetTools,
): Promise<AssistantAnswer> {
  const { t } = tools;
  const speed = jsonField(sql.dialect, 'attributes', 'speed', true);
  const rows = await eventCountsByDevice(sql, 'deviceOverspeed', speed, range.from, range.to);
  const byId = new Map(tools.devices.map((d) => [d.id, d]));
  const hits = rows.filter((r) => byId.has(r.deviceId)).map((r) => ({ ...r, device: byId.get(r.deviceId)! }));
  const period = range.label;
  if (!hits.length) return { intent: 'overspeed', text: t('assistant.noOverspeed', { period }), items: [] };
  return {
    intent: 'overspeed',
    text: t('assistant.overspeed', {
      count: hits.length,
      period,
      names: tools.names(hits.map((h) => h.device)),
    }),
    items: hits
      .slice(0, LIST_MAX)
      .map((h) =>
        tools.item(h.device, `${h.n}× · ${h.top ? tools.speed(Number(h.top)) : ''}`.replace(/ · $/, '')),
      ),
  };
}
