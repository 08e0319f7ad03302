import { describe, expect, it } from 'vitest';
import { serverToSettings, settingsToServer, type ServerSettingsValues } from '../src/serverSettingsForm.ts';
import { serverInput } from '../src/schemas/entities.ts';
import { resolveUnits } from '../src/units.ts';
import type { Server } from '../src/types.ts';

const server = (over: Partial<Server> = {}): Server => ({
  id: 1,
  attributes: { 'rastro.lang': 'es', speedUnit: 'kn', 'rastro.deviceLimit': 50, customThing: 'kept' },
  registration: false,
  readonly: false,
  deviceReadonly: true,
  map: 'osm',
  bingKey: null,
  mapUrl: null,
  overlayUrl: null,
  latitude: -23.55,
  longitude: -46.63,
  zoom: 12,
  forceSettings: false,
  coordinateFormat: 'dd',
  limitCommands: false,
  disableReports: false,
  fixedEmail: false,
  poiLayer: null,
  announcement: null,
  version: '1.0.0',
  emailEnabled: false,
  textEnabled: false,
  geocoderEnabled: false,
  storageSpace: null,
  newServer: false,
  openIdEnabled: false,
  openIdForce: false,
  ...over,
});

const edit = (over: Partial<ServerSettingsValues>, s = server()) =>
  settingsToServer(s, { ...serverToSettings(s, 'rastro'), ...over }, 'rastro');

describe('server settings form', () => {
  it('reads fields and {ns} attributes', () => {
    const v = serverToSettings(server(), 'rastro');
    expect(v).toMatchObject({
      registration: false,
      deviceReadonly: true,
      map: 'osm',
      latitude: '-23.55',
      longitude: '-46.63',
      zoom: '12',
      coordinateFormat: 'dd',
      lang: 'es',
      speedUnit: 'kn',
      deviceLimit: '50',
      enableBilling: false,
      twelveHourFormat: false,
      currency: '',
    });
  });

  it('an unchanged form saves the same server', () => {
    const r = edit({});
    expect(r.ok && r.server).toEqual(server());
  });

  it('speed unit to km/h changes the units the app resolves', () => {
    const r = edit({ speedUnit: 'kmh' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.server.attributes.speedUnit).toBe('kmh');
    expect(resolveUnits({ attributes: {} }, r.server).speedUnit).toBe('kmh');
  });

  it('keeps unknown attributes, removes emptied ones, stores numbers and flags', () => {
    const r = edit({
      lang: '',
      deviceLimit: '100',
      fuelPrice: '5,89',
      currency: 'BRL',
      enableAdvancedPerms: true,
      twelveHourFormat: true,
      smsUrl: 'https://sms.example.com/send',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.server.attributes).toEqual({
      speedUnit: 'kn',
      customThing: 'kept',
      'rastro.deviceLimit': 100,
      fuelPrice: 5.89,
      currency: 'BRL',
      'rastro.enableAdvancedPerms': true,
      twelveHourFormat: true,
      'rastro.smsApiUrl': 'https://sms.example.com/send',
    });
  });

  it('the result passes the server schema of PUT /api/server', () => {
    const r = edit({ registration: true, latitude: '10,5', zoom: '3', bingKey: 'B' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const parsed = serverInput.parse(r.server);
    expect(parsed).toMatchObject({ registration: true, latitude: 10.5, zoom: 3, bingKey: 'B' });
  });

  it('rejects out-of-range positions, zoom, limits, currency, urls and unknown choices', () => {
    const r = edit({
      latitude: '91',
      longitude: '-181',
      zoom: '23',
      deviceLimit: '-1',
      currency: 'real',
      smsUrl: 'ftp://x',
      speedUnit: 'kph',
      lang: 'fr',
      fuelPrice: '-2',
    });
    expect(r).toEqual({
      ok: false,
      errors: {
        latitude: 'validation.latitude',
        longitude: 'validation.longitude',
        zoom: 'validation.zoom',
        deviceLimit: 'validation.deviceLimit',
        currency: 'validation.currency',
        smsUrl: 'validation.url',
        speedUnit: 'validation.choice',
        lang: 'validation.choice',
        fuelPrice: 'validation.positive',
      },
    });
  });

  it('uses the configured namespace', () => {
    const s = server({ attributes: { 'frota.enableBilling': true } });
    expect(serverToSettings(s, 'frota').enableBilling).toBe(true);
    const r = settingsToServer(s, { ...serverToSettings(s, 'frota'), enableBilling: false }, 'frota');
    expect(r.ok && r.server.attributes).toEqual({});
  });

  it('engine-block speed limit: km/h ≥ 0 stored as a number under {ns}, empty removes it (default 20)', () => {
    const ok = edit({ blockMaxSpeed: '40' });
    expect(ok.ok && ok.server.attributes['rastro.blockMaxSpeed']).toBe(40);
    const zero = edit({ blockMaxSpeed: '0' });
    expect(zero.ok && zero.server.attributes['rastro.blockMaxSpeed']).toBe(0);
    const decimal = edit({ blockMaxSpeed: '12,5' });
    expect(decimal.ok && decimal.server.attributes['rastro.blockMaxSpeed']).toBe(12.5);
    const s = server({ attributes: { 'rastro.blockMaxSpeed': 35 } });
    expect(serverToSettings(s, 'rastro').blockMaxSpeed).toBe('35');
    const emptied = edit({ blockMaxSpeed: '' }, s);
    expect(emptied.ok && 'rastro.blockMaxSpeed' in emptied.server.attributes).toBe(false);
    for (const bad of ['-1', 'fast', '1001']) {
      const r = edit({ blockMaxSpeed: bad });
      expect(r.ok ? null : r.errors.blockMaxSpeed).toBe('validation.blockMaxSpeed');
    }
  });
});
