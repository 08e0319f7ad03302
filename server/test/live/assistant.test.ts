// The fleet assistant (server/src/live/assistant.ts): each sample question of issue #11 answered from the simulated
// fleet in pt-BR, es and en-US, only from the caller's own vehicles, and a plain "I did not understand".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, type MessageLocale } from '@rastro/domain';
import { getLive } from '../../src/live/ingest.ts';
import { startFleet, DEMO_PASSWORD, DEMO_USERS } from '../../src/live/simulator/index.ts';
import { login, makeTestApp, type TestApp } from '../helpers/app.ts';
import { first, insert, select } from '../support/testSql.ts';

const COUNT = 12;
let t: TestApp;

interface Answer {
  intent: string;
  text: string;
  items: Array<{
    deviceId: number;
    name: string;
    detail: string;
    latitude: number | null;
    longitude: number | null;
  }>;
}

beforeAll(async () => {
  t = await makeTestApp({ simDevices: COUNT, simIntervalMs: 3_600_000 });
  const fleet = (await startFleet(t.ctx))!;
  await fleet.ready;
  await getLive(t.ctx).settle();
}, 120_000);
afterAll(async () => t.close());

async function ask(text: string, lang: MessageLocale, cookie = t.admin): Promise<Answer> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/rastro/assistant',
    headers: { cookie, 'accept-language': lang, 'content-type': 'application/json' },
    payload: JSON.stringify({ text }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
}

const device = async (index: number) =>
  (await first(
    t.ctx.store.sql,
    'devices',
    { uniqueId: `rastro-${String(index).padStart(4, '0')}` },
    { columns: ['id', 'name', 'attributes'] },
  )) as { id: number; name: string; attributes: string };
const plateOf = async (index: number) =>
  (JSON.parse((await device(index)).attributes) as { placa: string }).placa;

const QUESTIONS: Record<
  MessageLocale,
  { where: string; offline: string; km: string; speed: string; nonsense: string }
> = {
  'pt-BR': {
    where: 'Onde está o caminhão {p}?',
    offline: 'Quais veículos estão offline?',
    km: 'Quantos km o {p} rodou hoje?',
    speed: 'Quem excedeu velocidade esta semana?',
    nonsense: 'Qual é a cor do céu?',
  },
  es: {
    where: '¿Dónde está el camión {p}?',
    offline: '¿Qué vehículos están fuera de línea?',
    km: '¿Cuántos km recorrió el {p} hoy?',
    speed: '¿Quién excedió la velocidad esta semana?',
    nonsense: '¿De qué color es el cielo?',
  },
  'en-US': {
    where: 'Where is the truck {p}?',
    offline: 'Which vehicles are offline?',
    km: 'How many km did {p} drive today?',
    speed: 'Who exceeded the speed limit this week?',
    nonsense: 'What colour is the sky?',
  },
};

describe.each(['pt-BR', 'es', 'en-US'] as const)('assistant in %s', (lang) => {
  const q = QUESTIONS[lang];

  it('where is a vehicle: its place, state and last report, with a map link', async () => {
    const d = await device(1);
    const p = (await getLive(t.ctx).latestPositionAsync(d.id))!;
    const a = await ask(q.where.replace('{p}', await plateOf(1)), lang);
    expect(a.intent).toBe('whereIs');
    expect(a.text.startsWith(`${d.name} `)).toBe(true);
    expect(a.text).toContain(p.latitude.toFixed(5));
    expect(a.items).toEqual([
      expect.objectContaining({ deviceId: d.id, latitude: p.latitude, longitude: p.longitude }),
    ]);
  });

  it('which vehicles are offline: the silent ones of the fleet (rastro-0010)', async () => {
    const a = await ask(q.offline, lang);
    expect(a.intent).toBe('offline');
    const silent = await device(10);
    expect(a.items.map((i) => i.deviceId)).toContain(silent.id);
    const live = getLive(t.ctx);
    for (const i of a.items) expect(live.deviceJson(i.deviceId)?.status).not.toBe('online');
    expect(a.text).toContain(silent.name);
  });

  it('how many km a vehicle drove today, as the odometer of today’s positions says', async () => {
    const d = await device(1);
    const rows = (await select(
      t.ctx.store.sql,
      'positions',
      { deviceId: d.id },
      { columns: ['fixTime', 'attributes'], orderBy: ['fixTime'] },
    )) as Array<{ fixTime: string; attributes: string }>;
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    const today = rows.filter((r) => r.fixTime >= midnight.toISOString());
    const odo = (r: { attributes: string }) =>
      (JSON.parse(r.attributes) as { totalDistance: number }).totalDistance;
    const km = today.length ? (odo(today.at(-1)!) - odo(today[0])) / 1000 : 0;
    const a = await ask(q.km.replace('{p}', await plateOf(1)), lang);
    expect(a.intent).toBe('distanceToday');
    const shown = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
      km,
    );
    expect(a.text).toBe(
      formatMessage('assistant.distanceToday', lang, { name: d.name, distance: `${shown} km` }),
    );
  });

  it('who exceeded the speed limit this week: the vehicles with overspeed events since Monday', async () => {
    const fast = await device(2);
    await insert(t.ctx.store.sql, 'events', {
      type: 'deviceOverspeed',
      eventTime: new Date().toISOString(),
      deviceId: fast.id,
      positionId: 0,
      geofenceId: 0,
      maintenanceId: 0,
      attributes: '{"speed":60.5,"speedLimit":43.2}',
    });
    const a = await ask(q.speed, lang);
    expect(a.intent).toBe('overspeed');
    expect(a.items.map((i) => i.deviceId)).toContain(fast.id);
    expect(a.text).toContain(fast.name);
  });

  it('says plainly when it does not understand', async () => {
    const a = await ask(q.nonsense, lang);
    expect(a).toEqual({ intent: 'unknown', text: formatMessage('assistant.unknown', lang), items: [] });
  });
});

describe('assistant scope and refusals', () => {
  it('answers a sub-user only about its own vehicles', async () => {
    const sub1 = await login(t.app, DEMO_USERS.sub1, DEMO_PASSWORD);
    const a = await ask('Quais veículos estão offline?', 'pt-BR', sub1);
    expect(a.text).toMatch(/dos seus 3 veículos|Nenhum dos seus 3 veículos/);
    const foreign = await device(12);
    const where = await ask(`Onde está o ${await plateOf(12)}?`, 'pt-BR', sub1);
    expect(where.text).toBe(
      formatMessage('assistant.notFound', 'pt-BR', { name: (await plateOf(12)).toLowerCase() }),
    );
    expect(where.items.map((i) => i.deviceId)).not.toContain(foreign.id);
  });

  it('asks which vehicle when none or several are named', async () => {
    const a = await ask('Onde está?', 'pt-BR');
    expect(a.text.startsWith('Qual veículo?')).toBe(true);
  });

  it('refuses the QR driver, and bad input is a translated 400', async () => {
    const qr = await login(t.app, DEMO_USERS.driver, DEMO_PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: '/rastro/assistant',
      headers: { cookie: qr, 'accept-language': 'es', 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'Onde está?' }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(formatMessage('assistant.unavailable', 'es'));
    const bad = await t.app.inject({
      method: 'POST',
      url: '/rastro/assistant',
      headers: { cookie: t.admin, 'accept-language': 'en-US', 'content-type': 'application/json' },
      payload: JSON.stringify({ text: '' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(formatMessage('validation.required', 'en-US'));
    expect(
      (await t.app.inject({ method: 'POST', url: '/rastro/assistant', payload: { text: 'x' } })).statusCode,
    ).toBe(401);
  });
});
