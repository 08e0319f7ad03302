import { describe, expect, it } from 'vitest';
import {
  ALARM_TYPES,
  COMMAND_TYPES,
  EVENT_TYPES,
  MAP_ICON_TYPES,
  MESSAGE_LOCALES,
  POSITION_ALARMS,
  SPEC_EVENT_TYPES,
  defaultMessages,
  eventTypeName,
  isMessageKey,
  serverErrorText,
  traccarName,
} from '../src/index.ts';

// Traccar's alarm names (Position.ALARM_*): the catalogue must name each of them, not only SPEC §3's list.
const TRACCAR_ALARMS = [
  'general',
  'sos',
  'vibration',
  'movement',
  'lowspeed',
  'overspeed',
  'fallDown',
  'lowPower',
  'lowBattery',
  'fault',
  'powerOff',
  'powerOn',
  'door',
  'lock',
  'unlock',
  'geofence',
  'geofenceEnter',
  'geofenceExit',
  'gpsAntennaCut',
  'accident',
  'tow',
  'idle',
  'highRpm',
  'hardAcceleration',
  'hardBraking',
  'hardCornering',
  'laneChange',
  'fatigueDriving',
  'powerCut',
  'powerRestored',
  'jamming',
  'temperature',
  'parking',
  'bonnet',
  'footBrake',
  'fuelLeak',
  'tampering',
  'removing',
];

const CATALOGUES: Record<string, readonly string[]> = {
  commandTypes: COMMAND_TYPES,
  categories: MAP_ICON_TYPES,
  events: [...new Set([...EVENT_TYPES, ...SPEC_EVENT_TYPES])],
  alarms: [...new Set([...ALARM_TYPES, ...TRACCAR_ALARMS])],
};

describe('names of Traccar catalogues (issue #29)', () => {
  for (const [kind, values] of Object.entries(CATALOGUES)) {
    it(`every ${kind} value has a text in pt-BR, es and en-US`, () => {
      const missing: string[] = [];
      for (const v of values) {
        const key = `${kind}.${v}`;
        if (!isMessageKey(key)) {
          missing.push(key);
          continue;
        }
        for (const l of MESSAGE_LOCALES) if (!defaultMessages[l][key]?.trim()) missing.push(`${l} ${key}`);
      }
      expect(missing).toEqual([]);
    });
  }

  it('the events report names every event type with the same catalogue', () => {
    const label = (k: keyof (typeof defaultMessages)['pt-BR']) => defaultMessages['pt-BR'][k];
    for (const type of EVENT_TYPES)
      expect(eventTypeName(type, label), type).toBe(traccarName('events', type));
    expect(eventTypeName('vendorEvent', label)).toBe('vendorEvent');
  });

  it('the domain lists every Traccar alarm', () => {
    expect([...POSITION_ALARMS].sort()).toEqual([...TRACCAR_ALARMS].sort());
  });

  it('traccarName: the name in the language, an unknown value as sent', () => {
    expect(traccarName('commandTypes', 'alarmSos', 'pt-BR')).toBe('Alarme SOS');
    expect(traccarName('commandTypes', 'sendUssd', 'es')).toBe('Enviar USSD');
    expect(traccarName('categories', 'bus', 'pt-BR')).toBe('Ônibus');
    expect(traccarName('categories', 'truck', 'es-AR')).toBe('Camión');
    expect(traccarName('events', 'ignitionOn', 'en-US')).toBe('Ignition on');
    expect(traccarName('alarms', 'powerCut', 'en')).toBe('Power cut');
    expect(traccarName('alarms', 'powerCut', undefined)).toBe('Corte de energia');
    expect(traccarName('alarms', 'someVendorAlarm', 'pt-BR')).toBe('someVendorAlarm');
    expect(traccarName('alarms', 'toString', 'pt-BR')).toBe('toString');
  });
});

describe('serverErrorText (issue #29: no exception class, Traccar refusals translated)', () => {
  it('drops the exception class before the message', () => {
    expect(serverErrorText('SecurityException: Permissão negada: editar (dispositivos)', 'pt-BR')).toBe(
      'Permissão negada: editar (dispositivos)',
    );
    expect(serverErrorText('WebApplicationException: Link não encontrado\n\tat x', 'pt-BR')).toBe(
      'Link não encontrado',
    );
    expect(serverErrorText('java.lang.IllegalArgumentException: Nome obrigatório', 'pt-BR')).toBe(
      'Nome obrigatório',
    );
    expect(serverErrorText('Plain text', 'pt-BR')).toBe('Plain text');
    expect(serverErrorText('', 'pt-BR')).toBe('');
    expect(serverErrorText(null, 'pt-BR')).toBe('');
  });

  it("translates Traccar's English refusals", () => {
    expect(serverErrorText('SecurityException: Write access denied', 'pt-BR')).toBe(
      'Acesso negado: esta conta só pode visualizar',
    );
    expect(serverErrorText('Write access denied', 'es')).toBe('Acceso denegado: esta cuenta solo puede ver');
    expect(serverErrorText('SecurityException: Device limit reached', 'pt-BR')).toBe(
      'Limite de dispositivos atingido',
    );
    expect(serverErrorText('SecurityException: Administrator access required', 'en-US')).toBe(
      'Administrator access required',
    );
  });
});
