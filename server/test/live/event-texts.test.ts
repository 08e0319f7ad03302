// Texts of notified events (SPEC §1 languages, §3 alarms): language and speed-unit choice per recipient.
import { describe, expect, it } from 'vitest';
import type { Event } from '@rastro/domain';
import { eventText, recipientLanguage, recipientSpeedUnit } from '../../src/live/eventTexts.ts';

const ev = (type: string, attributes: Event['attributes'] = {}, geofenceId = 0): Event => ({
  id: 1,
  type,
  eventTime: '2026-11-22T10:00:00.000+00:00',
  deviceId: 3,
  positionId: 0,
  geofenceId,
  maintenanceId: 0,
  attributes,
});

describe('recipient language and unit', () => {
  it("takes the user's {ns}.lang, then the server's, then pt-BR; tags are normalised", () => {
    expect(recipientLanguage({ 'rastro.lang': 'es' }, { 'rastro.lang': 'en-US' }, 'rastro')).toBe('es');
    expect(recipientLanguage({}, { 'rastro.lang': 'en' }, 'rastro')).toBe('en-US');
    expect(recipientLanguage({ 'rastro.lang': 'klingon' }, {}, 'rastro')).toBe('pt-BR');
    expect(recipientLanguage({ 'other.lang': 'es' }, undefined, 'rastro')).toBe('pt-BR');
    expect(recipientLanguage({ 'frota.lang': 'pt_br' }, undefined, 'frota')).toBe('pt-BR');
  });

  it("takes speedUnit of the user, then the server, else the language's (km/h in pt-BR and es, kn in en-US)", () => {
    expect(recipientSpeedUnit({ speedUnit: 'kmh' }, { speedUnit: 'mph' })).toBe('kmh');
    expect(recipientSpeedUnit({ speedUnit: 'warp' }, { speedUnit: 'mph' })).toBe('mph');
    expect(recipientSpeedUnit(undefined, undefined)).toBe('kmh');
    expect(recipientSpeedUnit({}, {}, 'es')).toBe('kmh');
    expect(recipientSpeedUnit({}, {}, 'en-US')).toBe('kn');
    expect(recipientSpeedUnit({}, { speedUnit: 'kn' }, 'pt-BR')).toBe('kn');
  });

  it('a pt-BR reader with no unit chosen reads km/h with a decimal comma (issue #29)', () => {
    const event = ev('deviceOverspeed', { speed: 55.3 / 1.852, speedLimit: 54 / 1.852 });
    expect(eventText(event, { deviceName: 'T', lang: 'pt-BR' })).toBe(
      'T excedeu o limite de velocidade: 55,3 km/h (limite 54 km/h)',
    );
    expect(eventText(event, { deviceName: 'T', lang: 'en-US' })).toBe(
      'T exceeds the speed limit: 29.9 kn (limit 29.2 kn)',
    );
  });
});

describe('eventText', () => {
  it('speaks each language, pt-BR by default', () => {
    expect(eventText(ev('deviceOnline'), { deviceName: 'Truck 1' })).toBe('Truck 1 está online');
    expect(eventText(ev('deviceOnline'), { deviceName: 'Truck 1', lang: 'es' })).toBe(
      'Truck 1 está en línea',
    );
    expect(eventText(ev('deviceOnline'), { deviceName: 'Truck 1', lang: 'en-US' })).toBe('Truck 1 is online');
  });

  it('names the geofence, or its id when unknown', () => {
    expect(eventText(ev('geofenceEnter', {}, 9), { deviceName: 'T', geofenceName: 'Depot' })).toBe(
      'T entrou na cerca Depot',
    );
    expect(eventText(ev('geofenceExit', {}, 9), { deviceName: 'T', lang: 'en-US' })).toBe(
      'T has exited geofence 9',
    );
  });

  it('translates the SPEC alarm names and keeps unknown ones as sent', () => {
    expect(eventText(ev('alarm', { alarm: 'lowBattery' }), { deviceName: 'T' })).toBe(
      'T alarme: bateria baixa',
    );
    expect(eventText(ev('alarm', { alarm: 'tow' }), { deviceName: 'T', lang: 'es' })).toBe(
      'T alarma: remolque',
    );
    expect(eventText(ev('alarm', { alarm: 'fall' }), { deviceName: 'T' })).toBe('T alarme: fall');
  });

  it("names every Traccar alarm from the domain catalogue, in English too (issue #29: no raw 'powerCut')", () => {
    expect(eventText(ev('alarm', { alarm: 'powerCut' }), { deviceName: 'T', lang: 'en-US' })).toBe(
      'T alarm: power cut',
    );
    expect(eventText(ev('alarm', { alarm: 'sos' }), { deviceName: 'T', lang: 'en-US' })).toBe('T alarm: SOS');
    expect(eventText(ev('alarm', { alarm: 'hardBraking' }), { deviceName: 'T' })).toBe(
      'T alarme: frenagem brusca',
    );
    expect(eventText(ev('alarm', { alarm: 'gpsAntennaCut' }), { deviceName: 'T', lang: 'es' })).toBe(
      'T alarma: antena GPS cortada',
    );
  });

  it("shows overspeed in the recipient's unit and number format (54 kn = 100 km/h; limit 43.2 kn = 80 km/h)", () => {
    const over = ev('deviceOverspeed', { speed: 53.9957, speedLimit: 43.19654 });
    expect(eventText(over, { deviceName: 'T', speedUnit: 'kmh' })).toBe(
      'T excedeu o limite de velocidade: 100 km/h (limite 80 km/h)',
    );
    expect(eventText(over, { deviceName: 'T', lang: 'en-US', speedUnit: 'mph' })).toBe(
      'T exceeds the speed limit: 62.1 mph (limit 49.7 mph)',
    );
    expect(eventText(ev('deviceOverspeed', { speed: 10.25 }), { deviceName: 'T', speedUnit: 'kn' })).toBe(
      'T excedeu o limite de velocidade: 10,3 kn (limite ?)',
    );
  });

  it('falls back to "device: type" for types without a text', () => {
    expect(eventText(ev('somethingNew'), { deviceName: 'T', lang: 'es' })).toBe('T: somethingNew');
  });
});
