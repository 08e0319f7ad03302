// The assistant's "who drove <vehicle>" (issue #28, server/src/live/assistantDrivers.ts): the drivers the vehicle's
// positions named in the period (driverUniqueId) and its QR check-ins (driverChanged events), by their names (the
// code when the driver is not registered), in pt-BR, es and en-US; a vehicle with no driver data gets a plain
// "I do not know", and a vehicle of somebody else is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, type MessageLocale } from '@rastro/domain';
import { getLive } from '../../src/live/ingest.ts';
import { storeEventIn } from '../../src/live/statusSweep.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
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

beforeAll(async () => {
  t = await makeTestApp();
  ana = await createUser(t);
  const driven = await createDevice(t, { name: 'Volvo Entregas' });
  const idle = await createDevice(t, { name: 'Fiat Reserva' });
  const other = await createDevice(t, { name: 'Scania Alheio' }); // not Ana's
  for (const d of [driven, idle]) await link(t, { userId: ana.id, deviceId: d.id });
  expectStatus(
    await api(t.app, t.admin, 'POST', '/api/drivers', { name: 'João Silva', uniqueId: 'MOT-1' }),
    200,
  );
  expectStatus(
    await api(t.app, t.admin, 'POST', '/api/drivers', { name: 'Maria Souza', uniqueId: 'MOT-3' }),
    200,
  );
  const now = Date.now();
  // João at the wheel, then an unregistered code; yesterday's driver is not today's answer
  const fixes: Array<[number, string | null]> = [
    [now - 26 * 3_600_000, 'MOT-9'],
    [now - 3000, 'MOT-1'],
    [now - 2000, 'MOT-2'],
    [now - 1000, 'MOT-1'],
  ];
  for (const [time, driver] of fixes)
    await ingestPosition(t, {
      uniqueId: driven.uniqueId,
      fixTime: new Date(time),
      attributes: driver ? { driverUniqueId: driver } : {},
    });
  await ingestPosition(t, { uniqueId: idle.uniqueId, fixTime: new Date(now - 1000) });
  await ingestPosition(t, {
    uniqueId: other.uniqueId,
    fixTime: new Date(now - 1000),
    attributes: { driverUniqueId: 'MOT-1' },
  });
  // Maria checked in by QR code (a driverChanged event) before any position named her
  // (stored as qrDriver.ts stores it: one emitEvents transaction on the pool, on both stores)
  await getLive(t.ctx).emitEvents(async (tx) => [
    await storeEventIn(tx, 'driverChanged', driven.id, null, {
      eventTime: new Date(now - 500).toISOString(),
      attributes: { driverUniqueId: 'MOT-3' },
    }),
  ]);
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

const QUESTIONS: Record<MessageLocale, { driven: string; idle: string; other: string }> = {
  'pt-BR': {
    driven: 'Quem dirigiu o Volvo Entregas hoje?',
    idle: 'Quem dirigiu o Fiat Reserva hoje?',
    other: 'Quem dirigiu o Scania Alheio hoje?',
  },
  es: {
    driven: '¿Quién condujo el Volvo Entregas hoy?',
    idle: '¿Quién condujo el Fiat Reserva hoy?',
    other: '¿Quién condujo el Scania Alheio hoy?',
  },
  'en-US': {
    driven: 'Who drove Volvo Entregas today?',
    idle: 'Who drove Fiat Reserva today?',
    other: 'Who drove Scania Alheio today?',
  },
};

describe('the assistant: who drove a vehicle (issue #28)', () => {
  it.each(Object.keys(QUESTIONS) as MessageLocale[])(
    '%s: the drivers by name in order, the unknown code as itself',
    async (lang) => {
      const a = await ask(QUESTIONS[lang].driven, lang);
      expect(a.intent).toBe('whoDrove');
      const period = formatMessage('assistant.periodToday', lang);
      expect(a.text).toBe(
        formatMessage('assistant.whoDrove', lang, {
          name: 'Volvo Entregas',
          period,
          drivers: 'João Silva, MOT-2, Maria Souza',
        }),
      );
      expect(a.items.map((i) => i.name)).toEqual(['Volvo Entregas']);
    },
  );

  it.each(Object.keys(QUESTIONS) as MessageLocale[])(
    '%s: no driver data is said plainly; another user’s vehicle is not found',
    async (lang) => {
      const idle = await ask(QUESTIONS[lang].idle, lang);
      const period = formatMessage('assistant.periodToday', lang);
      expect(idle.text).toBe(formatMessage('assistant.noDriver', lang, { name: 'Fiat Reserva', period }));
      const other = await ask(QUESTIONS[lang].other, lang);
      expect(other.text).not.toContain('João');
      expect(other.intent).toBe('whoDrove');
    },
  );
});
