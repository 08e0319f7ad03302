// The fleet assistant of /asistente-demo (issue #11): questions in pt-BR, es or en-US parsed into intents without
// any external service, and the vehicle a question names found among the user's own devices. The server answers
// from its data (server/src/ext/assistant.ts); the page shows the answer's text and data.

import { DEFAULT_NS } from './attributes.ts';
import { apiDenial, apiPermission, type ApiDenial, type ApiRequirement } from './apiPermissions.ts';
import { isDisableReports, type PermissionContext } from './permissions.ts';

export type AssistantIntent =
  | 'whereIs'
  | 'speedOf'
  | 'offline'
  | 'onlineCount'
  | 'moving'
  | 'stopped'
  | 'distanceToday'
  | 'overspeed'
  | 'whoDrove'
  | 'unknown';

/** The period a question names: overspeed defaults to the current week, distance to today. */
export type AssistantPeriod = 'today' | 'yesterday' | 'week';

/** Intents answered from report data (the day's positions, the week's overspeed events), not the live map. */
const REPORT_INTENTS: readonly AssistantIntent[] = ['distanceToday', 'overspeed', 'whoDrove'];

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
  /** overspeed: the current week unless the question names today or yesterday; distance: today unless named. */
  period: AssistantPeriod;
  /** overspeed above a speed the question gives ("passou de 80 km/h"), in km/h (mph converted); else null. */
  speedKmh: number | null;
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
  /\bultima (posicao|localizacao|posicion|ubicacion)\b/,
  /\blast (known )?(position|location)\b/,
];
/** Who drove a vehicle: the drivers its positions named (driverUniqueId) and its QR check-ins (issue #28). */
const WHO_DROVE = [
  /\bquem (dirigiu|conduziu|guiou|estava dirigindo|estava conduzindo|dirigia)\b/,
  /\b(qual|que) motorista\b/,
  /\bquien (condujo|manejo|conducia|manejaba|estaba conduciendo|estaba manejando)\b/,
  /\b(que|cual) conductor\b/,
  /\bwho (drove|was driving|droved|has driven)\b/,
  /\bwhich driver\b/,
];
const TODAY = [/\bhoje\b/, /\bhoy\b/, /\btoday\b/];
const YESTERDAY = [/\bontem\b/, /\bayer\b/, /\byesterday\b/];
const WEEK = [/\bsemana\b/, /\bweek\b/];
const ONLINE = [/\bonline\b/, /\ben linea\b/, /\bconectad/, /\bconnected\b/];
const MOVING = [
  /\bem movimento\b/,
  /\ben movimiento\b/,
  /\bin motion\b/,
  /\bmoving\b/,
  /\brodando\b/,
  /\bandando\b/,
  /\bcirculando\b/,
  /\bdriving\b/,
];
const STOPPED = [
  /\bparad[oa]s?\b/,
  /\bdesligad/,
  /\bdetenid/,
  /\bapagad/,
  /\bestacionad/,
  /\bstopped\b/,
  /\bparked\b/,
  /\bturned off\b/,
  /\bswitched off\b/,
];
const SPEED = [/\bvelocidade\b/, /\bvelocidad\b/, /\bspeed\b/, /\bhow fast\b/];
/** "80 km/h", "80 kmh", "50 mph" once folded. */
const SPEED_LIMIT = /\b(\d{1,3}) ?(km h|kmh|km por hora|mph)\b/;

/** Words of the questions themselves (and vehicle nouns), removed to leave the vehicle's name. */
const STOP_WORDS = new Set(
  (
    'onde esta fica anda donde se encuentra where is s the a o os as el la los las un una um uma de do da del ' +
    'of in em en no na caminhao carro veiculo moto van onibus camion coche vehiculo truck car vehicle bus ' +
    'quantos quanto km quilometros kilometros rodou percorreu hoje hoy today cuantos recorrio how many much far ' +
    'did drive drove distance distancia localiza localizar locate find me meu minha mi my agora ahora now ' +
    'please por favor ontem ayer yesterday semana week this esta este essa ultima ultimo posicao ' +
    'localizacao posicion ubicacion last known position location qual quale cual what velocidade velocidad ' +
    'speed fast e es y que going va vai indo quem dirigiu conduziu guiou estava dirigindo conduzindo dirigia ' +
    'motorista quien condujo manejo conducia manejaba estaba conduciendo manejando conductor who was driving ' +
    'driven has driver which'
  ).split(' '),
);

const MPH_KMH = 1.609344;

/**
 * The intent of a question and the words naming a vehicle. Order matters: a speed limit or "exceeded" is an
 * overspeed question before "speed of"; offline before online; distance before "where".
 */
export function parseQuestion(text: string): ParsedQuestion {
  const q = foldQuestion(text);
  const named: AssistantPeriod | null = has(q, YESTERDAY)
    ? 'yesterday'
    : has(q, TODAY)
      ? 'today'
      : has(q, WEEK)
        ? 'week'
        : null;
  const subject = q
    .split(' ')
    .filter((w) => w && !STOP_WORDS.has(w) && !/^\d+$/.test(w))
    .join(' ');
  const out = (intent: AssistantIntent, fallback: AssistantPeriod, speedKmh: number | null = null) => ({
    intent,
    subject: ['whereIs', 'speedOf', 'distanceToday', 'whoDrove'].includes(intent) ? subject : '',
    period: named ?? fallback,
    speedKmh,
  });
  if (!q) return out('unknown', 'week');
  const limit = SPEED_LIMIT.exec(q);
  if (limit) {
    const value = Number(limit[1]);
    return out('overspeed', 'today', limit[2] === 'mph' ? Math.round(value * MPH_KMH) : value);
  }
  if (has(q, OVERSPEED)) return out('overspeed', 'week');
  if (has(q, WHO_DROVE)) return out('whoDrove', 'today');
  if (has(q, OFFLINE)) return out('offline', 'today');
  if (has(q, ONLINE)) return out('onlineCount', 'today');
  if (has(q, MOVING)) return out('moving', 'today');
  if (has(q, STOPPED)) return out('stopped', 'today');
  if (has(q, DISTANCE) || /\bkm\b/.test(q)) return out('distanceToday', 'today');
  if (has(q, SPEED)) return out('speedOf', 'today');
  if (has(q, WHERE)) return out('whereIs', 'today');
  return { ...out('unknown', 'week'), subject };
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

/**
 * Start of the current week (Monday 00:00), day or previous day, in UTC milliseconds, for a time zone offset in
 * minutes.
 */
export function periodStart(period: AssistantPeriod, nowMs: number, offsetMinutes = 0): number {
  const local = new Date(nowMs + offsetMinutes * 60_000);
  local.setUTCHours(0, 0, 0, 0);
  if (period === 'yesterday') local.setUTCDate(local.getUTCDate() - 1);
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
