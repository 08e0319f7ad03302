import { describe, expect, it } from 'vitest';
import { assistantDenial, matchDevices, parseQuestion, periodStart } from '../src/assistant.ts';
import {
  NO_PERMISSIONS,
  permissionIndex,
  setPermissionBit,
  type PermissionContext,
} from '../src/permissions.ts';

describe('assistant questions (pt-BR, es, en-US)', () => {
  it.each([
    ['Onde está o caminhão ABC1D23?', 'whereIs', 'abc1d23'],
    ['¿Dónde está el camión ABC1D23?', 'whereIs', 'abc1d23'],
    ['Where is the truck ABC1D23?', 'whereIs', 'abc1d23'],
    ['Quais veículos estão offline?', 'offline', ''],
    ['¿Qué vehículos están fuera de línea?', 'offline', ''],
    ['Which vehicles are offline?', 'offline', ''],
    ['Quantos km o Volvo FH rodou hoje?', 'distanceToday', 'volvo fh'],
    ['¿Cuántos km recorrió el Volvo FH hoy?', 'distanceToday', 'volvo fh'],
    ['How many km did Volvo FH drive today?', 'distanceToday', 'volvo fh'],
    ['Quem excedeu velocidade esta semana?', 'overspeed', ''],
    ['¿Quién excedió la velocidad esta semana?', 'overspeed', ''],
    ['Who exceeded the speed limit this week?', 'overspeed', ''],
    ['Qual é a cor do céu?', 'unknown', ''],
    ['', 'unknown', ''],
  ])('%s ⇒ %s', (text, intent, subject) => {
    const q = parseQuestion(text);
    expect(q.intent).toBe(intent);
    if (subject) expect(q.subject).toBe(subject);
  });

  it('overspeed today when the question says so, else this week', () => {
    expect(parseQuestion('Quem excedeu a velocidade hoje?').period).toBe('today');
    expect(parseQuestion('Who was speeding?').period).toBe('week');
  });

  const devices = [
    { id: 1, name: 'Volvo FH ABC1D23', uniqueId: 'rastro-0001', plate: 'ABC1D23' },
    { id: 2, name: 'Volvo FH XYZ9K88', uniqueId: 'rastro-0002', plate: 'XYZ9K88' },
    { id: 3, name: 'Fiat Strada QWE2R34', uniqueId: 'rastro-0003', plate: 'QWE2R34' },
  ];
  it('finds the vehicle by plate, name or identifier; several when the words fit more than one', () => {
    const m = (text: string) => matchDevices(text, parseQuestion(text).subject, devices).map((d) => d.id);
    expect(m('Onde está o caminhão abc1d23?')).toEqual([1]);
    expect(m('Where is rastro-0003?')).toEqual([3]);
    expect(m('Onde está a Strada?')).toEqual([3]);
    expect(m('Onde está o Volvo?')).toEqual([1, 2]);
    expect(m('Onde está o Scania?')).toEqual([]);
  });

  it('periods start at local midnight and on Monday', () => {
    const wed = Date.parse('2026-11-25T15:00:00Z'); // a Wednesday
    expect(new Date(periodStart('today', wed)).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(new Date(periodStart('week', wed)).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    // São Paulo (UTC−3): local midnight is 03:00 UTC
    expect(new Date(periodStart('today', wed, -180)).toISOString()).toBe('2026-11-25T03:00:00.000Z');
  });
});

describe('assistantDenial: report questions obey the reports permission (issue #27)', () => {
  const ctx = (
    user: PermissionContext['user'],
    server: PermissionContext['server'] = { attributes: {} },
  ) => ({
    user,
    server,
    isPlus: true,
    ns: 'rastro',
  });
  const advanced = { attributes: { 'rastro.enableAdvancedPerms': true } };
  const allBut = (bit: number) => setPermissionBit('f'.repeat(32), bit, false);
  const reportsView = permissionIndex('reports', 'view')!;

  it('live-map intents are always allowed', () => {
    const u = { id: 2, disableReports: true, attributes: { 'rastro.advancedPerms': NO_PERMISSIONS } };
    for (const intent of ['whereIs', 'offline', 'unknown'] as const) {
      expect(assistantDenial(ctx(u, { ...advanced, disableReports: true }), intent)).toBeNull();
    }
  });

  it('the reports.view bit denied: the summary report refusal (area × action)', () => {
    const u = { id: 2, attributes: { 'rastro.advancedPerms': allBut(reportsView) } };
    for (const intent of ['distanceToday', 'overspeed'] as const) {
      expect(assistantDenial(ctx(u, advanced), intent)).toEqual({
        key: 'denied.permission',
        requirement: { area: 'reports', action: 'view' },
      });
    }
    // the bit only counts with advanced permissions on
    expect(assistantDenial(ctx(u), 'overspeed')).toBeNull();
  });

  it('disableReports on the user or the server; administrators are never refused', () => {
    const denied = { key: 'denied.reportsDisabled', requirement: null };
    expect(assistantDenial(ctx({ id: 2, disableReports: true, attributes: {} }), 'distanceToday')).toEqual(
      denied,
    );
    expect(
      assistantDenial(ctx({ id: 2, attributes: {} }, { attributes: {}, disableReports: true }), 'overspeed'),
    ).toEqual(denied);
    expect(
      assistantDenial(
        ctx(
          { id: 1, administrator: true, disableReports: true, attributes: {} },
          { attributes: {}, disableReports: true },
        ),
        'overspeed',
      ),
    ).toBeNull();
    expect(assistantDenial(ctx({ id: 2, attributes: {} }), 'distanceToday')).toBeNull();
  });
});
