// Excel answers of the reports (issue #12): the xlsx Accept header and the /{type}/xlsx paths give a real .xlsx
// with the screen's columns in the caller's language and units, never JSON under an Excel name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { XLSX_ACCEPT } from '@rastro/domain';
import type { AppContext } from '../../src/context.ts';
import { getLive } from '../../src/live/ingest.ts';
import { addDevice, addUser, basic, fleetApp, link } from './app.ts';
import { syntheticDay, T0 } from './track.ts';

let app: FastifyInstance;
let ctx: AppContext;
let deviceId: number;
const admin = basic('admin@x', 'pw');
const iso = (ms: number) => new Date(ms).toISOString();
const day = `from=${encodeURIComponent(iso(T0))}&to=${encodeURIComponent(iso(T0 + 3600_000))}`;

beforeAll(async () => {
  ({ app, ctx } = await fleetApp());
  const adminId = await addUser(ctx, 'admin@x', 'pw', {
    administrator: 1,
    attributes: { distanceUnit: 'km', speedUnit: 'kmh' },
  });
  deviceId = await addDevice(ctx, 'x-1', 'Caminhão 7');
  await link(ctx, 'user', adminId, 'device', deviceId);
  const live = getLive(ctx);
  live.invalidate();
  const results = await live.ingestMany(
    syntheticDay().map((p) => ({
      deviceId,
      protocol: 'osmand',
      fixTime: new Date(p.fixTime),
      latitude: p.latitude,
      longitude: p.longitude,
      speed: p.speed,
      attributes: { hours: p.attributes.hours, fuel: p.attributes.fuel },
    })),
  );
  expect(results.every((r) => r.ok)).toBe(true);
});

afterAll(async () => {
  await app.close();
});

async function sheet(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: ws.name, rows };
}

const get = (url: string, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url, headers: { ...admin, ...headers } });

describe('reports in Excel', () => {
  it('finding: the xlsx Accept header gives an .xlsx of the trips, not JSON', async () => {
    const json = (
      await get(`/api/reports/trips?deviceId=${deviceId}&${day}`, { accept: 'application/json' })
    ).json() as unknown[];
    expect(json).toHaveLength(2);
    const res = await get(`/api/reports/trips?deviceId=${deviceId}&${day}`, { accept: XLSX_ACCEPT });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX_ACCEPT);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK'); // a ZIP container, as every .xlsx
    const { name, rows } = await sheet(res.rawPayload);
    expect(name).toBe('Viagens'); // pt-BR by default
    expect(rows[0]).toContain('Dispositivo');
    expect(rows[0]).toContain('Distância (km)');
    expect(rows).toHaveLength(1 + json.length);
    const distance = (rows[0] as string[]).indexOf('Distância (km)');
    for (const r of rows.slice(1)) {
      expect(r[0]).toBe('Caminhão 7');
      expect(r[distance]).toBeCloseTo(6, 2); // 6000 m in the user's km
    }
  });

  it('/api/reports/{type}/xlsx answers each report type, in the language of Accept-Language', async () => {
    const expected = { route: 'Route', events: 'Events', trips: 'Trips', stops: 'Stops', summary: 'Summary' };
    for (const [type, title] of Object.entries(expected)) {
      const res = await get(`/api/reports/${type}/xlsx?deviceId=${deviceId}&${day}`, {
        accept: '*/*',
        'accept-language': 'en-US,en;q=0.8',
      });
      expect(res.statusCode, type).toBe(200);
      const { name, rows } = await sheet(res.rawPayload);
      expect(name).toBe(title);
      expect(rows[0][0]).toBe('Device');
    }
    const summary = await sheet(
      (await get(`/api/reports/summary/xlsx?deviceId=${deviceId}&${day}`, { 'accept-language': 'es' }))
        .rawPayload,
    );
    expect(summary.rows[0]).toContain('Velocidad máxima (km/h)');
    expect(summary.rows).toHaveLength(2);
  });

  it('bad input to the Excel variant is still a 400 text, not a broken file', async () => {
    const res = await get(`/api/reports/trips/xlsx?deviceId=abc&${day}`, {});
    expect(res.statusCode).toBe(400);
    const none = await get(`/api/reports/trips/xlsx?deviceId=${deviceId}&${day}`, { authorization: '' });
    expect(none.statusCode).toBe(401);
  });
});
