// The fleet assistant's "who drove <vehicle>" (issue #28): the drivers a vehicle had in the question's period, from
// the driver data the server keeps — the driver code its positions carried (driverUniqueId, from the tracker or a
// QR check-in) and its QR check-ins (driverChanged events) — in the order they first appear, each by its registered
// name (the code when no driver has it). No driver data: it says so plainly.
import type { SqlDatabase } from '../db/sql.ts';
import { jsonField } from '../db/sql.ts';
import { driverNamesByCode } from '../db/repos/catalog.ts';
import { firstEventTimesByCode } from '../db/repos/events.ts';
import { firstPositionTimesByCode } from '../db/repos/positions.ts';
import type { AssistantAnswer, FleetTools } from './assistantFleet.ts';

interface Seen {
  code: string | null;
  at: string;
}

/** The driver codes of one device in [from, to), in the order they first appear (positions and check-ins). */
async function driverCodes(sql: SqlDatabase, deviceId: number, from: string, to: string): Promise<string[]> {
  const code = jsonField(sql.dialect, 'attributes', 'driverUniqueId');
  const [positions, checkIns]: Seen[][] = await Promise.all([
    firstPositionTimesByCode(sql, code, deviceId, from, to),
    firstEventTimesByCode(sql, code, deviceId, 'driverChanged', from, to),
  ]);
  const first = new Map<string, number>();
  for (const s of [...positions, ...checkIns]) {
    if (!s.code) continue;
    const at = Date.parse(String(s.at));
    if (!first.has(s.code) || at < first.get(s.code)!) first.set(s.code, at);
  }
  return [...first.entries()].sort((a, b) => a[1] - b[1]).map(([c]) => c);
}

/** Registered drivers' names by code (only the codes asked for). */
async function driverNames(sql: SqlDatabase, codes: string[]): Promise<Map<string, string>> {
  if (!codes.length) return new Map();
  return new Map((await driverNamesByCode(sql, codes)).map((r) => [r.uniqueId, r.name]));
}

/** Who drove `d` in the period: names in order of first appearance, or a plain "I do not know". */
export async function whoDroveAnswer(
  sql: SqlDatabase,
  d: { id: number; name: string },
  range: { from: string; to: string; label: string },
  tools: FleetTools,
): Promise<AssistantAnswer> {
  const codes = await driverCodes(sql, d.id, range.from, range.to);
  const values = { name: d.name, period: range.label };
  if (!codes.length)
    return { intent: 'whoDrove', text: tools.t('assistant.noDriver', values), items: [tools.item(d, '')] };
  const names = await driverNames(sql, codes);
  const drivers = codes.map((c) => names.get(c) || c).join(', ');
  return {
    intent: 'whoDrove',
    text: tools.t('assistant.whoDrove', { ...values, drivers }),
    items: [tools.item(d, drivers)],
  };
}
