// Units from the reader's language (issue #29): a pt-BR user who chose no unit reads km/h in the Excel headers and
// in notification texts; each recipient's text is in their own language and that language's default unit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { getLiveServices } from '../../src/live/index.ts';
import type { Notificator, NotificationMessage } from '../../src/live/notificators/types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const KMH = 1.852;

async function report(uniqueId: string, speedKmh: number, fixTime: Date) {
  const r = await getLive(t.ctx).ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime,
    latitude: -23.55,
    longitude: -46.63,
    speed: speedKmh / KMH,
    attributes: {},
  });
  if (!r.ok) throw new Error(r.message);
}

async function headerRow(body: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
}

describe('units from the language when none was chosen', () => {
  it('Excel headers: "Velocidade média (km/h)" for a pt-BR reader, "(kn)" for en-US as Traccar', async () => {
    const ana = await createUser(t); // no unit, no language
    const d = await createDevice(t);
    await link(t, { userId: ana.id, deviceId: d.id });
    const start = Date.now() - 30 * 60_000;
    await report(d.uniqueId, 40, new Date(start));
    await report(d.uniqueId, 60, new Date(start + 60_000));
    const range = `from=${encodeURIComponent(new Date(start - 60_000).toISOString())}&to=${encodeURIComponent(
      new Date().toISOString(),
    )}`;
    const xlsx = async (lang: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/reports/summary/xlsx?deviceId=${d.id}&${range}`,
        headers: { cookie: ana.cookie, 'accept-language': lang },
      });
      expectStatus(res, 200);
      return headerRow(res.rawPayload);
    };
    const pt = await xlsx('pt-BR');
    expect(pt).toContain('Velocidade média (km/h)');
    expect(pt.join('|')).not.toContain('(kn)');
    expect(await xlsx('es')).toContain('Velocidad media (km/h)');
    expect(await xlsx('en-US')).toContain('Average speed (kn)');
  });

  it('notification texts: each recipient in their language and that language’s unit', async () => {
    const sent: Array<{ userId: number; message: NotificationMessage }> = [];
    const mail: Notificator = {
      type: 'mail',
      configured: () => true,
      async send(user, message) {
        sent.push({ userId: user.id, message });
      },
    };
    getLiveServices(t.ctx).notifier.setNotificator(mail);
    const ana = await createUser(t); // pt-BR by default, no unit
    const john = await createUser(t, { attributes: { 'rastro.lang': 'en-US' } });
    const lola = await createUser(t, { attributes: { 'rastro.lang': 'es' } });
    const mia = await createUser(t, { attributes: { 'rastro.lang': 'en-US', speedUnit: 'kmh' } });
    const d = await createDevice(t, { attributes: { speedLimit: 54 / KMH } });
    const n = await createObject(t, 'notifications', { type: 'deviceOverspeed', notificators: 'mail' });
    await link(t, { deviceId: d.id, notificationId: n.id });
    for (const u of [ana, john, lola, mia]) {
      await link(t, { userId: u.id, deviceId: d.id });
      await link(t, { userId: u.id, notificationId: n.id });
    }
    await report(d.uniqueId, 55.3, new Date());
    const bodyOf = (id: number) => sent.filter((s) => s.userId === id).map((s) => s.message.body);
    expect(bodyOf(ana.id)).toEqual([`${d.name} excedeu o limite de velocidade: 55,3 km/h (limite 54 km/h)`]);
    expect(bodyOf(lola.id)).toEqual([`${d.name} superó el límite de velocidad: 55,3 km/h (límite 54 km/h)`]);
    expect(bodyOf(john.id)).toEqual([`${d.name} exceeds the speed limit: 29.9 kn (limit 29.2 kn)`]);
    expect(bodyOf(mia.id)).toEqual([`${d.name} exceeds the speed limit: 55.3 km/h (limit 54 km/h)`]);
  });
});
