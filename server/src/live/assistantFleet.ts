// The fleet assistant's answers about the whole fleet's live state and speeds (issue #28): which vehicles are
// moving or stopped, how many are online, a vehicle's speed, and who went over a speed the question gives. The
// question is parsed by the domain's parseQuestion; live/assistant.ts routes the other intents.
import { kmhToKnots, type MessageKey, type Position } from '@rastro/domain';
import type { SqlDatabase } from '../db/sql.ts';
import { topSpeedsOver } from '../db/repos/positions.ts';

/** What the page shows under the answer: vehicles, each with a map link when it has a position. */
export interface AssistantItem {
  deviceId: number;
  name: string;
  detail: string;
  latitude: number | null;
  longitude: number | null;
}

export interface AssistantAnswer {
  intent: string;
  text: string;
  items: AssistantItem[];
}

interface Vehicle {
  id: number;
  name: string;
}

/** What the answers read, made once per question by live/assistant.ts. */
export interface FleetTools {
  devices: Vehicle[];
  t(key: MessageKey, values?: Record<string, string | number>): string;
  item(d: Vehicle, detail: string): AssistantItem;
  names(list: Vehicle[]): string;
  latest(id: number): Position | null;
  status(id: number): string;
  speed(knots: number): string;
  /** metres in the caller's unit, one decimal */
  distance(meters: number): string;
  time(iso: string): string;
}

const LIST_MAX = 10;

/** Moving as the where-is answer says it: the latest position has motion and a speed. */
export const isMoving = (p: Position | null): boolean => !!p && p.attributes.motion === true && p.speed > 0;

/** moving / stopped / onlineCount; null for any other intent. */
export function fleetAnswer(intent: string, tools: FleetTools): AssistantAnswer | null {
  const { devices, t } = tools;
  const total = devices.length;
  if (intent === 'onlineCount') {
    const count = devices.filter((d) => tools.status(d.id) === 'online').length;
    return { intent, text: t('assistant.onlineCount', { count, total }), items: [] };
  }
  if (intent !== 'moving' && intent !== 'stopped') return null;
  const moving = intent === 'moving';
  // stopped: a vehicle with a position that is not moving (one that never reported is neither)
  const hits = devices.filter((d) => {
    const p = tools.latest(d.id);
    return p && isMoving(p) === moving;
  });
  if (!hits.length) return { intent, text: t(`assistant.${intent}None`, { total }), items: [] };
  return {
    intent,
    text: t(`assistant.${intent}List`, { count: hits.length, total, names: tools.names(hits) }),
    items: hits.slice(0, LIST_MAX).map((d) => {
      const p = tools.latest(d.id)!;
      return tools.item(d, moving ? tools.speed(p.speed) : tools.time(p.fixTime));
    }),
  };
}

/** The speed of one vehicle's latest position. */
export function speedAnswer(d: Vehicle, tools: FleetTools): AssistantAnswer {
  const p = tools.latest(d.id);
  if (!p) return { intent: 'speedOf', text: tools.t('assistant.noPosition', { name: d.name }), items: [] };
  const speed = tools.speed(p.speed);
  return {
    intent: 'speedOf',
    text: tools.t('assistant.speedOf', { name: d.name, speed, time: tools.time(p.fixTime) }),
    items: [tools.item(d, speed)],
  };
}

/** The vehicles whose positions in [from, to) went over `kmh`, fastest first, with their top speed. */
export async function overLimitAnswer(
  sql: SqlDatabase,
  kmh: number,
  range: { from: string; to: string; label: string },
  tools: FleetTools,
): Promise<AssistantAnswer> {
  const rows = await topSpeedsOver(sql, range.from, range.to, kmhToKnots(kmh));
  const byId = new Map(tools.devices.map((d) => [d.id, d]));
  const hits = rows.filter((r) => byId.has(r.deviceId));
  const values = { limit: `${kmh} km/h`, period: range.label };
  if (!hits.length)
    return { intent: 'overspeed', text: tools.t('assistant.noOverspeedAbove', values), items: [] };
  const vehicles = hits.map((h) => byId.get(h.deviceId)!);
  return {
    intent: 'overspeed',
    text: tools.t('assistant.overspeedAbove', {
      ...values,
      count: hits.length,
      names: tools.names(vehicles),
    }),
    items: hits.slice(0, LIST_MAX).map((h) => tools.item(byId.get(h.deviceId)!, tools.speed(Number(h.top)))),
  };
}
