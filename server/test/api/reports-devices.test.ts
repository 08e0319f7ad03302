// Issue #27: GET /api/reports/devices/xlsx answered 404. Traccar's devices report (openapi /reports/devices/{type}):
// an .xlsx of the caller's devices with their latest state, columns in the caller's language; /mail sends it to the
// caller (204). Refused like every report: disableReports, or an advanced-permissions user without reports.view.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, NO_PERMISSIONS, XLSX_ACCEPT } from '@rastro/domain';
import { setMailer, type MailMessage } from '../../src/traccar/mailer.ts';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';

async function sheet(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: ws.name, rows };
}

describe('GET /api/reports/devices/{xlsx,mail}', () => {
  let t: TestApp;
  const outbox: MailMessage[] = [];
  beforeAll(async () => {
    t = await makeTestApp();
    setMailer(t.ctx, {
      configured: true,
      outbox,
      async send(m) {
        outbox.push(m);
        return { sent: true };
      },
    });
  });
  afterAll(async () => t.close());

  it("is an .xlsx of the caller's devices with their latest state, in the caller's language", async () => {
    const g = await createObject(t, 'groups', { name: 'Frota Sul' });
    const mine = await createDevice(t, { name: 'Caminhão 27', groupId: g.id, phone: '+5511999' });
    const idle = await createDevice(t, { name: 'Reboque sem posição' });
    const other = await createDevice(t, { name: 'Alheio' });
    const u = await createUser(t, { email: 'frota27@example.com', attributes: { speedUnit: 'kmh' } });
    await link(t, { userId: u.id, deviceId: mine.id });
    await link(t, { userId: u.id, deviceId: idle.id });
    await ingestPosition(t, {
      uniqueId: mine.uniqueId,
      fixTime: new Date(Date.now() - 60_000),
      latitude: -23.5,
      longitude: -46.6,
      speed: 10, // knots: 18.52 km/h
    });
    await ingestPosition(t, { uniqueId: other.uniqueId, fixTime: new Date(), latitude: 1, longitude: 1 });

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/reports/devices/xlsx',
      headers: { cookie: u.cookie, 'accept-language': 'pt-BR' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX_ACCEPT);
    expect(res.headers['content-disposition']).toContain('attachment');
    const { name, rows } = await sheet(res.rawPayload);
    expect(name).toBe('Dispositivos');
    const header = rows[0] as string[];
    expect(header).toEqual(
      expect.arrayContaining(['Dispositivo', 'Identificador', 'Grupo', 'Velocidade (km/h)']),
    );
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Caminhão 27', 'Reboque sem posição']); // not "Alheio"
    const row = rows[1]!;
    expect(row[header.indexOf('Identificador')]).toBe(mine.uniqueId);
    expect(row[header.indexOf('Grupo')]).toBe('Frota Sul');
    expect(row[header.indexOf('Telefone')]).toBe('+5511999');
    expect(row[header.indexOf('Latitude')]).toBe(-23.5);
    expect(row[header.indexOf('Velocidade (km/h)')]).toBeCloseTo(18.52, 2);
    expect(row[header.indexOf('Status')]).toBe('Online');
    // a device without a position has its identity and empty position cells
    expect(rows[2]![header.indexOf('Latitude')] ?? '').toBe('');

    const en = await t.app.inject({
      method: 'GET',
      url: '/api/reports/devices/xlsx',
      headers: { cookie: u.cookie, 'accept-language': 'en-US' },
    });
    expect((await sheet(en.rawPayload)).rows[0]).toEqual(expect.arrayContaining(['Device', 'Identifier']));
  });

  it('/mail sends the same workbook to the caller (204)', async () => {
    const u = await createUser(t, { email: 'mail27@example.com' });
    const d = await createDevice(t, { name: 'Van 27' });
    await link(t, { userId: u.id, deviceId: d.id });
    const res = await api(t.app, u.cookie, 'GET', '/api/reports/devices/mail');
    expect(res.statusCode).toBe(204);
    const mail = outbox.at(-1)!;
    expect(mail.to).toBe('mail27@example.com');
    expect(mail.subject).toBe(formatMessage('reportMail.subject', 'pt-BR', { type: 'dispositivos' }));
    expect(mail.attachments![0]!.filename).toBe('report-devices.xlsx');
    const { rows } = await sheet(mail.attachments![0]!.content);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Van 27']);
  });

  it('is refused for a user with reports disabled and for an advanced user without reports.view', async () => {
    const off = await createUser(t, { disableReports: true });
    const res = await api(t.app, off.cookie, 'GET', '/api/reports/devices/xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Operation restricted');
    expect((await api(t.app, off.cookie, 'GET', '/api/reports/devices/mail')).statusCode).toBe(400);
    expect((await api(t.app, null, 'GET', '/api/reports/devices/xlsx')).statusCode).toBe(401);

    const server = expectStatus<Record<string, unknown>>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    const attributes = { ...(server.attributes as object), 'rastro.enableAdvancedPerms': true };
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
    const sub = await createUser(t, { attributes: { 'rastro.advancedPerms': NO_PERMISSIONS } });
    const denied = await api(t.app, sub.cookie, 'GET', '/api/reports/devices/xlsx');
    expect(denied.statusCode).toBe(403);
  });
});
