// Scheduled reports (server/src/live/reports/scheduled.ts): a report whose calendar period has just ended is run
// for that period as each linked user and mailed as .xlsx through a local fake SMTP server; never twice.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import { sendMail } from '../../src/live/notificators/mail.ts';
import { getScheduledReports } from '../../src/live/reports/scheduled.ts';
import { setMailer, type MailMessage } from '../../src/traccar/mailer.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { count } from '../support/testSql.ts';

/** A minimal SMTP server keeping each DATA section. */
function fakeSmtp(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((s) => {
    let data: string[] | null = null;
    let buf = '';
    s.write('220 fake ESMTP\r\n');
    s.on('data', (chunk) => {
      buf += chunk.toString();
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data) {
          if (line === '.') {
            messages.push(data.join('\r\n'));
            data = null;
            s.write('250 queued\r\n');
          } else data.push(line);
          continue;
        }
        const cmd = line.split(' ')[0].toUpperCase();
        if (cmd === 'EHLO') s.write('250 fake\r\n');
        else if (cmd === 'DATA') {
          data = [];
          s.write('354 go\r\n');
        } else if (cmd === 'QUIT') s.end('221 bye\r\n');
        else s.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, messages }),
    ),
  );
}

const ics = (from: Date, to: Date) => {
  const f = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  return Buffer.from(
    `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Rastro//test//EN\nBEGIN:VEVENT\nUID:t1\nDTSTART:${f(from)}\nDTEND:${f(to)}\nEND:VEVENT\nEND:VCALENDAR\n`,
  ).toString('base64');
};

describe('scheduled reports', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof fakeSmtp>>;
  const outbox: MailMessage[] = [];

  beforeAll(async () => {
    smtp = await fakeSmtp();
    t = await makeTestApp();
    setMailer(t.ctx, {
      configured: true,
      outbox,
      async send(m) {
        outbox.push(m);
        await sendMail(
          { host: '127.0.0.1', port: smtp.port, secure: false, from: 'rastro@example.com' },
          m.to,
          m.subject,
          m.body,
          m.attachments,
        );
        return { sent: true };
      },
    });
  });
  afterAll(async () => {
    await t.close();
    smtp.server.close();
  });

  it('runs when its calendar period ends and mails the .xlsx to each linked user, once', async () => {
    const end = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60 * 60_000);
    const start = new Date(end.getTime() - 2 * 3600_000);
    const d = await createDevice(t, { name: 'Caminhão agendado' });
    for (let i = 0; i < 6; i++)
      await ingestPosition(t, {
        uniqueId: d.uniqueId,
        fixTime: new Date(start.getTime() + (i + 1) * 10 * 60_000),
        latitude: -23.55 + i * 0.01,
        longitude: -46.63,
        speed: 20,
      });
    const cal = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/calendars', {
        name: 'Turno',
        data: ics(start, end),
        attributes: {},
      }),
      200,
    );
    const report = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/reports', {
        type: 'route',
        description: 'Rota do turno',
        calendarId: cal.id,
        attributes: {},
      }),
      200,
    );
    const ana = await createUser(t, { email: 'ana@example.com', attributes: { 'rastro.lang': 'es' } });
    await link(t, { userId: ana.id, deviceId: d.id });
    await link(t, { userId: ana.id, reportId: report.id });
    await link(t, { deviceId: d.id, reportId: report.id });
    const noMail = await createUser(t, { email: 'sem-email' });
    await link(t, { userId: noMail.id, reportId: report.id });

    const scheduler = getScheduledReports(t.ctx)!;
    // before the end: nothing
    expect(await scheduler.runDue(end.getTime() - 30_000, end.getTime() - 90_000)).toEqual([]);
    // the tick that contains the end
    const runs = await scheduler.runDue(end.getTime() + 30_000, end.getTime() - 30_000);
    expect(runs).toEqual([
      expect.objectContaining({ reportId: report.id, from: start.toISOString(), to: end.toISOString() }),
    ]);
    expect(runs[0]!.sent).toEqual(['ana@example.com']);

    const mail = outbox.at(-1)!;
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject.startsWith('Rota do turno: ')).toBe(true);
    expect(mail.body.startsWith('Adjunto: el informe de recorrido')).toBe(true);
    const xlsx = mail.attachments![0]!;
    expect(xlsx.filename).toBe('report-route.xlsx');
    expect(xlsx.content.subarray(0, 2).toString()).toBe('PK'); // a zip: the workbook
    expect(xlsx.content.length).toBeGreaterThan(3000);
    // what the SMTP server received: a multipart message with the attachment
    const data = smtp.messages.at(-1)!;
    expect(data).toContain('Content-Type: multipart/mixed; boundary=');
    expect(data).toMatch(/Content-Disposition: attachment; filename="?report-route\.xlsx"?/);
    expect(data.replace(/\r\n/g, '')).toContain(xlsx.content.toString('base64').slice(0, 200));

    // the same period never twice, even when the tick repeats (restart)
    expect(await scheduler.runDue(end.getTime() + 45_000, end.getTime() - 15_000)).toEqual([]);
    // the five-minute token used to run it is revoked
    expect(await count(t.ctx.store.sql, 'tokens', { userId: ana.id, revoked: 0 })).toBe(0);
    expect(formatMessage('scheduledReport.subject', 'es', { name: 'x', from: 'a', to: 'b' })).toBe(
      'x: a – b',
    );
  });

  it('a scheduled devices report mails each recipient its devices as they are now', async () => {
    const end = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000);
    const start = new Date(end.getTime() - 3600_000);
    const d = await createDevice(t, { name: 'Frota agendada' });
    const cal = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/calendars', {
        name: 'Inventário',
        data: ics(start, end),
        attributes: {},
      }),
      200,
    );
    const report = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/reports', {
        type: 'devices',
        description: 'Inventário da frota',
        calendarId: cal.id,
        attributes: {},
      }),
      200,
    );
    const caio = await createUser(t, { email: 'caio@example.com' });
    await link(t, { userId: caio.id, deviceId: d.id });
    await link(t, { userId: caio.id, reportId: report.id });
    const runs = await getScheduledReports(t.ctx)!.runDue(end.getTime() + 1000, end.getTime() - 59_000);
    expect(runs.find((r) => r.reportId === report.id)).toMatchObject({
      sent: ['caio@example.com'],
      failed: [],
    });
    const mail = outbox.at(-1)!;
    expect(mail.to).toBe('caio@example.com');
    expect(mail.attachments![0]!.filename).toBe('report-devices.xlsx');
    expect(mail.attachments![0]!.content.subarray(0, 2).toString()).toBe('PK');
  });

  it('each recipient gets only what it may see', async () => {
    const end = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000);
    const start = new Date(end.getTime() - 3600_000);
    const mine = await createDevice(t, { name: 'Visível' });
    const other = await createDevice(t, { name: 'Alheio' });
    for (const dev of [mine, other])
      await ingestPosition(t, { uniqueId: dev.uniqueId, fixTime: new Date(start.getTime() + 60_000) });
    const cal = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/calendars', {
        name: 'Hora',
        data: ics(start, end),
        attributes: {},
      }),
      200,
    );
    const report = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/reports', {
        type: 'route',
        description: 'Duas',
        calendarId: cal.id,
        attributes: {},
      }),
      200,
    );
    const bia = await createUser(t, { email: 'bia@example.com' });
    await link(t, { userId: bia.id, deviceId: mine.id });
    await link(t, { userId: bia.id, reportId: report.id });
    await link(t, { deviceId: mine.id, reportId: report.id });
    await link(t, { deviceId: other.id, reportId: report.id });
    const runs = await getScheduledReports(t.ctx)!.runDue(end.getTime() + 1000, end.getTime() - 59_000);
    // bia may not see "Alheio": the report as bia is refused, nothing leaks, the failure is recorded
    expect(runs[0]).toMatchObject({ sent: [], failed: ['bia@example.com'] });
  });
  it('GET /api/reports/{type}/mail mails the caller its own .xlsx (204); no address or no mail server is a translated 400', async () => {
    const from = new Date(Date.now() - 3 * 3600_000);
    const to = new Date();
    const d = await createDevice(t, { name: 'Caminhão do e-mail' });
    for (let i = 0; i < 4; i++)
      await ingestPosition(t, {
        uniqueId: d.uniqueId,
        fixTime: new Date(from.getTime() + (i + 1) * 10 * 60_000),
        latitude: -23.55 + i * 0.01,
        longitude: -46.63,
        speed: 30,
      });
    const bia = await createUser(t, { email: 'bia.mail@example.com' });
    await link(t, { userId: bia.id, deviceId: d.id });
    const q = `deviceId=${d.id}&from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    const before = smtp.messages.length;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports/route/mail?${q}`,
      headers: { cookie: bia.cookie, 'accept-language': 'pt-BR' },
    });
    expect(res.statusCode).toBe(204);
    const mail = outbox.at(-1)!;
    expect(mail).toMatchObject({ to: 'bia.mail@example.com', subject: 'Rastro: relatório de percurso' });
    expect(mail.attachments![0]!.filename).toBe('report-route.xlsx');
    expect(mail.attachments![0]!.content.subarray(0, 2).toString()).toBe('PK');
    expect(smtp.messages.length).toBe(before + 1);
    expect(smtp.messages.at(-1)).toMatch(/filename="?report-route\.xlsx"?/);
    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/reports/summary/mail?${q}`,
      headers: { cookie: bia.cookie },
    });
    expect(summary.statusCode).toBe(204);
    expect(outbox.at(-1)!.attachments![0]!.filename).toBe('report-summary.xlsx');

    // a login that is not an address: nothing to send to
    const noAddress = await createUser(t, { email: 'sem-endereco-mail' });
    await link(t, { userId: noAddress.id, deviceId: d.id });
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/reports/route/mail?${q}`,
      headers: { cookie: noAddress.cookie, 'accept-language': 'en-US' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe(`IllegalArgumentException: ${formatMessage('reportMail.noAddress', 'en-US')}`);

    // a server without mail: translated 400, never a 500
    const bare = await makeTestApp();
    try {
      const dev = await createDevice(bare);
      const r = await bare.app.inject({
        method: 'GET',
        url: `/api/reports/route/mail?deviceId=${dev.id}&from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
        headers: { cookie: bare.admin, 'accept-language': 'es' },
      });
      expect(r.statusCode).toBe(400);
      expect(r.body).toBe(`IllegalArgumentException: ${formatMessage('reportMail.notConfigured', 'es')}`);
    } finally {
      await bare.close();
    }
  });
});
