// The text of a notified event in the recipient's language (pt-BR default, es, en-US; SPEC §1) and speed unit.
// Sent as the web card's `attributes.message` (Traccar's clients read it) and as the subject/body of mail, SMS, push
// and Telegram; the web app's card makes the same text again in the page's language (issue #29).
import { convertSpeed, localeUnits, resolveUnits, UNIT_LABELS, type SpeedUnit } from './units.ts';
import { formatDecimal } from './format.ts';
import { DEFAULT_LOCALE, normalizeLocale, type SupportedLocale } from './locale.ts';
import { traccarName } from './traccarNames.ts';
import type { Attributes, Event } from './types.ts';

export interface TextContext {
  deviceName: string;
  geofenceName?: string;
  lang?: SupportedLocale;
  speedUnit?: SpeedUnit;
}

type Template = (v: Record<string, string>) => string;
type Catalogue = Record<string, Template> & { default: Template };

const pt: Catalogue = {
  deviceOnline: (v) => `${v.device} está online`,
  deviceOffline: (v) => `${v.device} está offline`,
  deviceUnknown: (v) => `${v.device} está com status desconhecido`,
  deviceInactive: (v) => `${v.device} está inativo`,
  deviceMoving: (v) => `${v.device} está em movimento`,
  deviceStopped: (v) => `${v.device} parou`,
  deviceOverspeed: (v) => `${v.device} excedeu o limite de velocidade: ${v.speed} (limite ${v.limit})`,
  geofenceEnter: (v) => `${v.device} entrou na cerca ${v.geofence}`,
  geofenceExit: (v) => `${v.device} saiu da cerca ${v.geofence}`,
  alarm: (v) => `${v.device} alarme: ${v.alarm}`,
  ignitionOn: (v) => `${v.device} ignição LIGADA`,
  ignitionOff: (v) => `${v.device} ignição DESLIGADA`,
  commandResult: (v) => `${v.device} resultado do comando: ${v.result}`,
  queuedCommandSent: (v) => `${v.device} recebeu um comando pendente`,
  driverChanged: (v) => `${v.device} troca de motorista: ${v.driver}`,
  maintenance: (v) => `${v.device} precisa de manutenção`,
  deviceFuelDrop: (v) => `${v.device} queda de combustível`,
  deviceFuelIncrease: (v) => `${v.device} aumento de combustível`,
  textMessage: (v) => `${v.device} mensagem: ${v.message}`,
  test: () => 'Notificação de teste',
  default: (v) => `${v.device}: ${v.type}`,
};

const es: Catalogue = {
  deviceOnline: (v) => `${v.device} está en línea`,
  deviceOffline: (v) => `${v.device} está fuera de línea`,
  deviceUnknown: (v) => `${v.device} tiene estado desconocido`,
  deviceInactive: (v) => `${v.device} está inactivo`,
  deviceMoving: (v) => `${v.device} está en movimiento`,
  deviceStopped: (v) => `${v.device} se detuvo`,
  deviceOverspeed: (v) => `${v.device} superó el límite de velocidad: ${v.speed} (límite ${v.limit})`,
  geofenceEnter: (v) => `${v.device} entró en la geocerca ${v.geofence}`,
  geofenceExit: (v) => `${v.device} salió de la geocerca ${v.geofence}`,
  alarm: (v) => `${v.device} alarma: ${v.alarm}`,
  ignitionOn: (v) => `${v.device} encendido ACTIVADO`,
  ignitionOff: (v) => `${v.device} encendido DESACTIVADO`,
  commandResult: (v) => `${v.device} resultado del comando: ${v.result}`,
  queuedCommandSent: (v) => `${v.device} recibió un comando pendiente`,
  driverChanged: (v) => `${v.device} cambio de conductor: ${v.driver}`,
  maintenance: (v) => `${v.device} necesita mantenimiento`,
  deviceFuelDrop: (v) => `${v.device} caída de combustible`,
  deviceFuelIncrease: (v) => `${v.device} aumento de combustible`,
  textMessage: (v) => `${v.device} mensaje: ${v.message}`,
  test: () => 'Notificación de prueba',
  default: (v) => `${v.device}: ${v.type}`,
};

const en: Catalogue = {
  deviceOnline: (v) => `${v.device} is online`,
  deviceOffline: (v) => `${v.device} is offline`,
  deviceUnknown: (v) => `${v.device} status is unknown`,
  deviceInactive: (v) => `${v.device} has been inactive`,
  deviceMoving: (v) => `${v.device} is moving`,
  deviceStopped: (v) => `${v.device} has stopped`,
  deviceOverspeed: (v) => `${v.device} exceeds the speed limit: ${v.speed} (limit ${v.limit})`,
  geofenceEnter: (v) => `${v.device} has entered geofence ${v.geofence}`,
  geofenceExit: (v) => `${v.device} has exited geofence ${v.geofence}`,
  alarm: (v) => `${v.device} alarm: ${v.alarm}`,
  ignitionOn: (v) => `${v.device} ignition ON`,
  ignitionOff: (v) => `${v.device} ignition OFF`,
  commandResult: (v) => `${v.device} command result: ${v.result}`,
  queuedCommandSent: (v) => `${v.device} received a queued command`,
  driverChanged: (v) => `${v.device} driver changed: ${v.driver}`,
  maintenance: (v) => `${v.device} maintenance is required`,
  deviceFuelDrop: (v) => `${v.device} fuel drop`,
  deviceFuelIncrease: (v) => `${v.device} fuel increase`,
  textMessage: (v) => `${v.device} message: ${v.message}`,
  test: () => 'Test notification',
  default: (v) => `${v.device}: ${v.type}`,
};

const CATALOGUES: Record<SupportedLocale, Catalogue> = { 'pt-BR': pt, es, 'en-US': en };

/** Names of the alarms SPEC §3 lists; others by the domain's catalogue of Traccar alarms, else as sent. */
const ALARMS: Record<SupportedLocale, Record<string, string>> = {
  'pt-BR': {
    sos: 'SOS',
    vibration: 'vibração',
    overspeed: 'excesso de velocidade',
    lowBattery: 'bateria baixa',
    powerCut: 'corte de energia',
    geofence: 'cerca',
    accident: 'acidente',
    tow: 'reboque',
    jamming: 'interferência (jammer)',
    tampering: 'violação',
  },
  es: {
    sos: 'SOS',
    vibration: 'vibración',
    overspeed: 'exceso de velocidad',
    lowBattery: 'batería baja',
    powerCut: 'corte de energía',
    geofence: 'geocerca',
    accident: 'accidente',
    tow: 'remolque',
    jamming: 'interferencia (jammer)',
    tampering: 'manipulación',
  },
  'en-US': {},
};

/** A catalogue name inside a sentence: 'Power cut' ⇒ 'power cut'; acronyms ('SOS', 'GPS antenna cut') kept. */
const inSentence = (name: string) => (/^.[a-zà-ÿ]/.test(name) ? name[0].toLowerCase() + name.slice(1) : name);

/** A user's language: their `{ns}.lang`, else the server's, else pt-BR (SPEC §1). */
export function recipientLanguage(
  userAttrs: Record<string, unknown> | undefined,
  serverAttrs: Record<string, unknown> | undefined,
  ns: string,
): SupportedLocale {
  for (const v of [userAttrs?.[`${ns}.lang`], serverAttrs?.[`${ns}.lang`]]) {
    const l = typeof v === 'string' ? normalizeLocale(v) : null;
    if (l) return l;
  }
  return DEFAULT_LOCALE;
}

/**
 * A user's speed unit: the user's `speedUnit`, else the server's, else their language's default (domain
 * resolveUnits: km/h in pt-BR and es, knots in en-US as Traccar).
 */
export function recipientSpeedUnit(
  userAttrs: Record<string, unknown> | undefined,
  serverAttrs: Record<string, unknown> | undefined,
  lang: SupportedLocale = DEFAULT_LOCALE,
): SpeedUnit {
  return resolveUnits(
    { attributes: userAttrs as Attributes | undefined },
    { attributes: serverAttrs as Attributes | undefined },
    lang,
  ).speedUnit;
}

/** The short text of an event for one recipient. */
export function eventText(event: Event, ctx: TextContext): string {
  const lang = ctx.lang ?? DEFAULT_LOCALE;
  const unit = ctx.speedUnit ?? localeUnits(lang).speedUnit;
  const a = event.attributes ?? {};
  const speed = (v: unknown) => {
    const n = Number(v);
    if (!Number.isFinite(n)) return '?';
    return `${formatDecimal(convertSpeed(n, unit), lang, 1)} ${UNIT_LABELS[unit]}`;
  };
  const alarm = String(a.alarm ?? '');
  const values: Record<string, string> = {
    device: ctx.deviceName,
    type: event.type,
    geofence: ctx.geofenceName ?? String(event.geofenceId),
    alarm: ALARMS[lang][alarm] ?? inSentence(traccarName('alarms', alarm, lang)),
    speed: speed(a.speed),
    limit: speed(a.speedLimit),
    result: String(a.result ?? ''),
    driver: String(a.driverUniqueId ?? ''),
    message: String(a.message ?? ''),
  };
  const catalogue = CATALOGUES[lang];
  return (catalogue[event.type] ?? catalogue.default)(values);
}
