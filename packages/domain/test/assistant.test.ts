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

  it.each([
    ['Quais veículos estão em movimento agora?', 'moving'],
    ['¿Qué vehículos están en movimiento ahora?', 'moving'],
    ['Which vehicles are moving right now?', 'moving'],
    ['Quais veículos estão parados?', 'stopped'],
    ['Quais veículos estão desligados?', 'stopped'],
    ['¿Qué vehículos están detenidos?', 'stopped'],
    ['¿Qué vehículos están apagados?', 'stopped'],
    ['Which vehicles are stopped?', 'stopped'],
    ['Which vehicles are parked?', 'stopped'],
    ['Quantos veículos estão online?', 'onlineCount'],
    ['¿Cuántos vehículos están en línea?', 'onlineCount'],
    ['How many vehicles are online?', 'onlineCount'],
  ])('fleet question %s ⇒ %s', (text, intent) => {
    expect(parseQuestion(text)).toMatchObject({ intent, subject: '' });
  });

  it.each([
    ['Qual a velocidade do Volvo FH?', 'speedOf', 'volvo fh'],
    ['¿A qué velocidad va el Volvo FH?', 'speedOf', 'volvo fh'],
    ['What is the speed of Volvo FH?', 'speedOf', 'volvo fh'],
    ['How fast is Volvo FH going?', 'speedOf', 'volvo fh'],
    ['Última posição do Volvo FH', 'whereIs', 'volvo fh'],
    ['Última posición del Volvo FH', 'whereIs', 'volvo fh'],
    ['Last position of Volvo FH', 'whereIs', 'volvo fh'],
  ])('vehicle question %s ⇒ %s (%s)', (text, intent, subject) => {
    expect(parseQuestion(text)).toMatchObject({ intent, subject });
  });

  it.each([
    ['Quem passou de 80 km/h hoje?', 80, 'today'],
    ['¿Quién pasó de 80 km/h hoy?', 80, 'today'],
    ['Who went over 80 km/h today?', 80, 'today'],
    ['Who drove faster than 50 mph yesterday?', 80, 'yesterday'],
  ])('speed limit %s ⇒ overspeed above %d km/h, %s', (text, speedKmh, period) => {
    expect(parseQuestion(text)).toMatchObject({ intent: 'overspeed', speedKmh, period });
  });

  it.each([
    ['Quantos km o Volvo FH rodou ontem?', 'yesterday'],
    ['¿Cuántos km recorrió el Volvo FH ayer?', 'yesterday'],
    ['How many km did Volvo FH drive yesterday?', 'yesterday'],
    ['Quantos km o Volvo FH rodou esta semana?', 'week'],
    ['¿Cuántos km recorrió el Volvo FH esta semana?', 'week'],
    ['How many km did Volvo FH drive this week?', 'week'],
    ['Km do Volvo FH hoje', 'today'],
  ])('distance %s ⇒ %s', (text, period) => {
    expect(parseQuestion(text)).toMatchObject({ intent: 'distanceToday', subject: 'volvo fh', period });
  });

  it.each([
    ['Quem dirigiu o Volvo FH hoje?', 'today'],
    ['Quem estava dirigindo o Volvo FH ontem?', 'yesterday'],
    ['Qual motorista conduziu o Volvo FH esta semana?', 'week'],
    ['¿Quién condujo el Volvo FH hoy?', 'today'],
    ['¿Quién manejó el Volvo FH ayer?', 'yesterday'],
    ['Who drove Volvo FH today?', 'today'],
    ['Who was driving the Volvo FH yesterday?', 'yesterday'],
    ['Which driver drove Volvo FH this week?', 'week'],
    ['Quem dirigiu o Volvo FH?', 'today'],
  ])('who drove %s ⇒ whoDrove, %s', (text, period) => {
    expect(parseQuestion(text)).toMatchObject({ intent: 'whoDrove', subject: 'volvo fh', period });
  });

  it("who drove reads the day's positions: it needs what the reports need", () => {
    const ctx: PermissionContext = {
      user: { id: 2, disableReports: true },
      server: { attributes: {} },
      isPlus: false,
    };
    expect(assistantDenial(ctx, 'whoDrove')).toMatchObject({ key: 'denied.reportsDisabled' });
  });

  it('yesterday starts a day before today, in the time zone', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(periodStart('yesterday', now, -180)).toBe(Date.parse('2026-11-27T03:00:00Z'));
    expect(periodStart('today', now, -180)).toBe(Date.parse('2026-11-28T03:00:00Z'));
  });

  it('live questions need no report permission; distance and overspeed do', () => {
    const ctx: PermissionContext = {
      user: { id: 2, disableReports: true },
      server: { attributes: {} },
      isPlus: false,
    };
    for (const intent of ['moving', 'stopped', 'onlineCount', 'speedOf', 'whereIs'] as const)
      expect(assistantDenial(ctx, intent)).toBeNull();
    expect(assistantDenial(ctx, 'distanceToday')).toMatchObject({ key: 'denied.reportsDisabled' });
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
