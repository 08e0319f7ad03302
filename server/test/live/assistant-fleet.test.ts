// The assistant's fleet questions of issue #28 (server/src/live/assistantFleet.ts, live/assistant.ts): moving,
// stopped, how many online, a vehicle's speed, who went over 80 km/h today, km yesterday, in pt-BR, es and en-US,
// only about the caller's own vehicles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, type MessageLocale } from '@rastro/domain';
import {
  createDevice,
  createUser,
  ingestPosition,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';

interface Answer {
  intent: string;
  text: string;
  items: Array<{ deviceId: number; name: string; detail: string }>;
}

let t: TestApp;
let ana: CreatedUser;
const made: Record<'fast' | 'parked' | 'silent' | 'other', { id: number; name: string; uniqueId: string }> =
  {} as never;

beforeAll(async () => {
  t = await makeTestApp();
  ana = await createUser(t);
  made.fast = await createDevice(t, { name: 'Volvo Rápido' });
  made.parked = await createDevice(t, { name: 'Fiat Parado' });
  made.silent = await createDevice(t, { name: 'Moto Mudo' });
  made.other = await createDevice(t, { name: 'Outro Veloz' }); // not Ana's: never in her answers
  for (const d of [made.fast, made.parked, made.silent]) await link(t, { userId: ana.id, deviceId: d.id });
  const now = Date.now();
  // 50 kn ≈ 92.6 km/h
  for (const d of [made.fast, made.other])
    await ingestPosition(t, {
      uniqueId: d.uniqueId,
      fixTime: new Date(now - 1000),
      speed: 50,
      attributes: { motion: true, ignition: true },
    });
  await ingestPosition(t, {
    uniqueId: made.parked.uniqueId,
    fixTime: new Date(now - 1000),
    speed: 0,
    attributes: { motion: false, ignition: false },
  });
});
afterAll(() => t.close());

async function ask(text: string, lang: MessageLocale): Promise<Answer> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/${t.ctx.config.ns}/assistant`,
    headers: { cookie: ana.cookie, 'accept-language': lang, 'content-type': 'application/json' },
    payload: JSON.stringify({ text }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
}

const Q: Record<MessageLocale, Record<string, string>> = {
  'pt-BR': {
    moving: 'Quais veículos estão em movimento agora?',
    stopped: 'Quais veículos estão parados?',
    online: 'Quantos veículos estão online?',
    speed: 'Qual a velocidade do Volvo Rápido?',
    over: 'Quem passou de 80 km/h hoje?',
    over100: 'Quem passou de 100 km/h hoje?',
    yesterday: 'Quantos km o Volvo Rápido rodou ontem?',
  },
  es: {
    moving: '¿Qué vehículos están en movimiento ahora?',
    stopped: '¿Qué vehículos están detenidos?',
    online: '¿Cuántos vehículos están en línea?',
    speed: '¿A qué velocidad va el Volvo Rápido?',
    over: '¿Quién pasó de 80 km/h hoy?',
    over100: '¿Quién pasó de 100 km/h hoy?',
    yesterday: '¿Cuántos km recorrió el Volvo Rápido ayer?',
  },
  'en-US': {
    moving: 'Which vehicles are moving right now?',
    stopped: 'Which vehicles are stopped?',
    online: 'How many vehicles are online?',
    speed: 'What is the speed of Volvo Rápido?',
    over: 'Who went over 80 km/h today?',
    over100: 'Who went over 100 km/h today?',
    yesterday: 'How many km did Volvo Rápido drive yesterday?',
  },
};

describe.each(Object.keys(Q) as MessageLocale[])('assistant fleet questions in %s', (lang) => {
  const q = Q[lang];
  const ids = (a: Answer) => a.items.map((i) => i.deviceId);

  it('moving and stopped list only the caller’s vehicles in that state', async () => {
    const moving = await ask(q.moving, lang);
    expect(moving.intent).toBe('moving');
    expect(ids(moving)).toEqual([made.fast.id]);
    expect(moving.text).toBe(
      formatMessage('assistant.movingList', lang, { count: 1, total: 3, names: made.fast.name }),
    );
    const stopped = await ask(q.stopped, lang);
    expect(stopped.intent).toBe('stopped');
    expect(ids(stopped)).toEqual([made.parked.id]);
  });

  it('how many online', async () => {
    const a = await ask(q.online, lang);
    expect(a).toMatchObject({
      intent: 'onlineCount',
      text: formatMessage('assistant.onlineCount', lang, { count: 2, total: 3 }),
    });
  });

  it('the speed of a named vehicle', async () => {
    const a = await ask(q.speed, lang);
    expect(a.intent).toBe('speedOf');
    expect(ids(a)).toEqual([made.fast.id]);
    expect(a.text).toContain(made.fast.name);
  });

  it('who went over a given speed today: positions above it, the caller’s vehicles only', async () => {
    const over = await ask(q.over, lang);
    expect(over.intent).toBe('overspeed');
    expect(ids(over)).toEqual([made.fast.id]);
    const none = await ask(q.over100, lang);
    expect(none.text).toBe(
      formatMessage('assistant.noOverspeedAbove', lang, {
        limit: '100 km/h',
        period: formatMessage('assistant.periodToday', lang),
      }),
    );
  });

  it('km yesterday: nothing driven yesterday', async () => {
    const a = await ask(q.yesterday, lang);
    expect(a.intent).toBe('distanceToday');
    expect(a.text).toContain(formatMessage('assistant.periodYesterday', lang));
    expect(a.text).toContain(made.fast.name);
  });
});
