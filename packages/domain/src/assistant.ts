// The fleet assistant of /asistente-demo (issue #11): questions in pt-BR, es or en-US parsed into intents without
// any external service, and the vehicle a question names found among the user's own devices. The server answers
// from its data (server/src/ext/assistant.ts); the page shows the answer's text and data.

import { DEFAULT_NS } from './attributes.ts';
import { apiDenial, apiPermission, type ApiDenial, type ApiRequirement } from './apiPermissions.ts';
import { isDisableReports, type PermissionContext } from './permissions.ts';

export type AssistantIntent = 'whereIs' | 'offline' | 'distanceToday' | 'overspeed' | 'unknown';

/** Intents answered from report data (the day's positions, the week's overspeed events), not the live map. */
const REPORT_INTENTS: readonly AssistantIntent[] = ['distanceToday', 'overspeed'];

export type AssistantDenial =
  { key: ApiDenial; requirement: ApiRequirement } | { key: 'denied.reportsDisabled'; requirement: null };

/**
 * Why the caller may not get an answer to `intent` (issue #27), or null: a report intent needs what the summary
 * report needs — its advanced permission (apiPermission of GET /api/reports/summary, apiDenial: the same refusal),
 * then Traccar's disableReports on the user or the server (isDisableReports). Live-map intents are always allowed.
 */
export function assistantDenial(ctx: PermissionContext, intent: AssistantIntent): AssistantDenial | null {
  if (!REPORT_INTENTS.includes(intent)) return null;
  const requirement = apiPermission('GET', '/api/reports/summary', ctx.ns ?? DEFAULT_NS);
  const key = requirement && apiDenial(ctx, requirement);
  if (requirement && key) return { key, requirement };
  if (isDisableReports(ctx.user, ctx.server)) return { key: 'denied.reportsDisabled', requirement: null };
  return null;
}

export interface ParsedQuestion {
  intent: AssistantIntent;
  /** The words left once the question's own words are removed: what names the vehicle (whereIs, distanceToday). */
  subject: string;
  /** overspeed: 'today' when the question says so, else the current week. */
  period: 'today' | 'week';
}

/** Lower case, no accents, punctuation as spaces, single spaces. */
export function foldQuestion(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const has = (text: string, patterns: readonly RegExp[]) => patterns.some((p) => p.test(text));

const OFFLINE = [
  /\boffline\b/,
  /\bdesconectad/,
  /\bfuera de linea\b/,
  /\bsem sinal\b/,
  /\bsin senal\b/,
  /\bnot reporting\b/,
];
const OVERSPEED = [
  /\bexced/,
  /\bexceed/,
  /\bspeeding\b/,
  /\boverspeed/,
  /\bacima (da|do limite de) velocidade\b/,
  /\blimite de velocidad/,
  /\bvelocidade (maxima|acima)\b/,
];
const DISTANCE = [
  /\bquantos? (km|quilometros)\b/,
  /\bcuantos? (km|kilometros)\b/,
  /\bhow (many|much) (km|kilometers|kilometres|miles)\b/,
  /\bhow far\b/,
  /\brodou\b/,
  /\bpercorreu\b/,
  /\brecorrio\b/,
  /\bdrove\b/,
  /\b(distancia|distance)\b/,
];
const WHERE = [
  /\bonde (esta|fica|anda)\b/,
  /\bdonde (esta|se encuentra|anda)\b/,
  /\bwhere (is|s)\b/,
  /\blocaliza/,
  /\blocate\b/,
];
const TODAY = [/\bhoje\b/, /\bhoy\b/, /\btoday\b/];

/** Words of the questions themselves (and vehicle nouns), removed to leave the vehicle's name. */
const STOP_WORDS = new Set(
  (
    'onde esta fica anda donde se encuentra where is s the a o os as el la los las un una um uma de do da del ' +
    'of in em en no na caminhao carro veiculo moto van onibus camion coche vehiculo truck car vehicle bus ' +
    'quantos quanto km quilometros kilometros rodou percorreu hoje hoy today cuantos recorrio how many much far ' +
    'did drive drove distance distancia localiza localizar locate find me meu minha mi my agora ahora now ' +
    'please por favor'
  ).split(' '),
);

/** The intent of a question and the words naming a vehicle. */
export function parseQuestion(text: string): ParsedQuestion {
  const q = foldQuestion(text);
  const period: 'today' | 'week' = has(q, TODAY) ? 'today' : 'week';
  const subject = q
    .split(' ')
    .filter((w) => w && !STOP_WORDS.has(w))
    .join(' ');
  if (!q) return { intent: 'unknown', subject: '', period };
  if (has(q, OVERSPEED)) return { intent: 'overspeed', subject: '', period };
  if (has(q, OFFLINE)) return { intent: 'offline', subject: '', period };
  if (has(q, DISTANCE)) return { intent: 'distanceToday', subject, period: 'today' };
  if (has(q, WHERE)) return { intent: 'whereIs', subject, period };
  return { intent: 'unknown', subject, period };
}

export interface AssistantDevice {
  id: number;
  name: string;
  uniqueId: string;
  plate?: string | null;
}

/**
 * The devices a question names: a device whose name, plate or identifier appears whole in the question wins
 * (the longest such match); otherwise the devices whose name contains every word of the subject. Empty when
 * nothing matches; several when the words fit more than one.
 */
export function matchDevices<D extends AssistantDevice>(
  question: string,
  subject: string,
  devices: readonly D[],
): D[] {
  const q = ` ${foldQuestion(question)} `;
  let best: D[] = [];
  let bestLength = 0;
  for (const d of devices) {
    for (const candidate of [d.name, d.plate ?? '', d.uniqueId]) {
      const c = foldQuestion(candidate);
      if (c.length < 3 || !q.includes(` ${c} `)) continue;
      if (c.length > bestLength) {
        best = [d];
        bestLength = c.length;
      } else if (c.length === bestLength && !best.includes(d)) best.push(d);
    }
  }
  if (best.length) return best;
  const words = foldQuestion(subject)
    .split(' ')
    .filter((w) => w.length >= 2);
  if (!words.length) return [];
  return devices.filter((d) => {
    const hay = ` ${foldQuestion(`${d.name} ${d.plate ?? ''} ${d.uniqueId}`)} `;
    return words.every((w) => hay.includes(w));
  });
}

/** Start of the current week (Monday 00:00) or day, in UTC milliseconds, for a time zone offset in minutes. */
export function periodStart(period: 'today' | 'week', nowMs: number, offsetMinutes = 0): number {
  const local = new Date(nowMs + offsetMinutes * 60_000);
  local.setUTCHours(0, 0, 0, 0);
  if (period === 'week') {
    const day = (local.getUTCDay() + 6) % 7; // Monday = 0
    local.setUTCDate(local.getUTCDate() - day);
  }
  return local.getTime() - offsetMinutes * 60_000;
}

/** Sample questions the page offers (one per intent), by language. */
export const ASSISTANT_SAMPLES: Readonly<Record<'pt-BR' | 'es' | 'en-US', readonly string[]>> = {
  'pt-BR': [
    'Onde está o caminhão {{name}}?',
    'Quais veículos estão offline?',
    'Quantos km o {{name}} rodou hoje?',
    'Quem excedeu a velocidade esta semana?',
  ],
  es: [
    '¿Dónde está el camión {{name}}?',
    '¿Qué vehículos están fuera de línea?',
    '¿Cuántos km recorrió el {{name}} hoy?',
    '¿Quién excedió la velocidad esta semana?',
  ],
  'en-US': [
    'Where is the truck {{name}}?',
    'Which vehicles are offline?',
    'How many km did {{name}} drive today?',
    'Who exceeded the speed limit this week?',
  ],
};
