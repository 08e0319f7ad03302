// Notifications (CONTRACT §9): endpoints, matching rules, and the real channel clients against local fake servers.
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  laterFixTime,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { getLiveServices } from '../../src/live/index.ts';
import { calendarActive } from '../../src/live/calendar.ts';
import { sendMail } from '../../src/live/notificators/mail.ts';
import { smsNotificator, telegramNotificator } from '../../src/live/notificators/http.ts';
import { loadNotificatorConfig } from '../../src/live/notificators/config.ts';
import type { Notificator, NotificationMessage } from '../../src/live/notificators/types.ts';
import type { User } from '../../src/live/cache.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

function fake(type: string): Notificator & { sent: Array<{ userId: number; message: NotificationMessage }> } {
  const sent: Array<{ userId: number; message: NotificationMessage }> = [];
  return {
    type,
    sent,
    configured: () => true,
    async send(user, message) {
      sent.push({ userId: user.id, message });
    },
  };
}

const report = async (uniqueId: string, attributes: Record<string, unknown>, fixTime = laterFixTime()) => {
  const r = await getLive(t.ctx).ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime,
    latitude: 0,
    longitude: 0,
    attributes,
  });
  if (!r.ok) throw new Error(r.message);
};

describe('endpoints', () => {
  it('lists event types and the configured notificators (announcement excludes web and command)', async () => {
    expect((await api(t.app, t.admin, 'GET', '/api/notifications/types')).json()).toEqual(
      EVENT_TYPES.map((type) => ({ type })),
    );
    const all = (await api(t.app, t.admin, 'GET', '/api/notifications/notificators')).json() as Array<{
      type: string;
    }>;
    // No adapter is configured in this app: only the channels that can deliver (client-compat.test.ts has both).
    expect(all.map((n) => n.type)).toEqual(['web', 'command']);
    const ann = (
      await api(t.app, t.admin, 'GET', '/api/notifications/notificators?announcement=true')
    ).json() as Array<{
      type: string;
    }>;
    expect(ann.map((n) => n.type)).toEqual([]);
    expect((await api(t.app, null, 'GET', '/api/notifications/types')).statusCode).toBe(401);
  });

  it('test: unconfigured channel ⇒ 400 with a clear text; web and configured channels ⇒ 204', async () => {
    const res = await api(t.app, t.admin, 'POST', '/api/notifications/test/sms');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Notificator sms is not configured');
    expect((await api(t.app, t.admin, 'POST', '/api/notifications/test/web')).statusCode).toBe(204);
    expect((await api(t.app, t.admin, 'POST', '/api/notifications/test/pigeon')).statusCode).toBe(400);
    expect((await api(t.app, t.admin, 'POST', '/api/notifications/test')).statusCode).toBe(204);
    const tg = fake('telegram');
    getLiveServices(t.ctx).notifier.setNotificator(tg);
    expect((await api(t.app, t.admin, 'POST', '/api/notifications/test/telegram')).statusCode).toBe(204);
    expect(tg.sent).toHaveLength(1);
  });

  it('send: managers/admins only, body required, to listed or all managed users, skipping temporary users', async () => {
    const tg = fake('telegram');
    getLiveServices(t.ctx).notifier.setNotificator(tg);
    const chat = { attributes: { telegramChatId: '42' } };
    const plain = await createUser(t, chat);
    const denied = await api(t.app, plain.cookie, 'POST', '/api/notifications/send/telegram', { body: 'hi' });
    expect(denied.body).toBe('SecurityException: Manager access required');
    const manager = await createUser(t, { userLimit: 5 });
    const managed = await createUser(t, chat, manager.cookie);
    const temp = await createUser(t, { ...chat, temporary: true }, manager.cookie);
    const noBody = await api(t.app, manager.cookie, 'POST', '/api/notifications/send/telegram', {
      subject: 'x',
    });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.body).toContain('body');
    const foreign = await api(
      t.app,
      manager.cookie,
      'POST',
      `/api/notifications/send/telegram?userId=${plain.id}`,
      {
        body: 'hi',
      },
    );
    expect(foreign.body).toBe('SecurityException: User access denied');
    const ok = await api(t.app, manager.cookie, 'POST', '/api/notifications/send/telegram', {
      subject: 'S',
      body: 'Hello',
    });
    expect(ok.statusCode).toBe(204);
    const ids = tg.sent.map((s) => s.userId);
    expect(ids).toContain(managed.id);
    expect(ids).not.toContain(temp.id);
    expect(ids).not.toContain(plain.id);
    expect(tg.sent[0].message.body).toBe('Hello');
  });
});

describe('matching', () => {
  it('delivers by type, alarms, geofenceIds and the 15-minute age limit, to linked users who see the device', async () => {
    const mail = fake('mail');
    getLiveServices(t.ctx).notifier.setNotificator(mail);
    const watcher = await createUser(t);
    const blind = await createUser(t);
    const d = await createDevice(t);
    await link(t, { userId: watcher.id, deviceId: d.id });
    const n = await createObject(t, 'notifications', {
      type: 'alarm',
      notificators: 'mail',
      attributes: { alarms: 'sos,fall' },
    });
    await link(t, { deviceId: d.id, notificationId: n.id });
    await link(t, { userId: watcher.id, notificationId: n.id });
    await link(t, { userId: blind.id, notificationId: n.id }); // linked but cannot see the device
    await report(d.uniqueId, { alarm: 'sos' });
    await report(d.uniqueId, { alarm: 'powerCut' }); // not listed
    await report(d.uniqueId, { alarm: 'fall' }, new Date(Date.now() - 20 * 60 * 1000)); // too old
    const toWatcher = mail.sent.filter((s) => s.userId === watcher.id);
    expect(toWatcher.map((s) => s.message.body)).toEqual([`${d.name} alarme: SOS`]); // pt-BR by default
    expect(mail.sent.some((s) => s.userId === blind.id)).toBe(false);
  });

  it("writes each recipient's text in their language ({ns}.lang) on every channel", async () => {
    const mail = fake('mail');
    getLiveServices(t.ctx).notifier.setNotificator(mail);
    const ana = await createUser(t); // no language: pt-BR
    const john = await createUser(t, { attributes: { 'rastro.lang': 'en-US' } });
    const lola = await createUser(t, { attributes: { 'rastro.lang': 'es' } });
    const d = await createDevice(t);
    const n = await createObject(t, 'notifications', {
      type: 'alarm',
      notificators: 'mail',
      attributes: { alarms: 'powerCut' },
    });
    await link(t, { deviceId: d.id, notificationId: n.id });
    for (const u of [ana, john, lola]) {
      await link(t, { userId: u.id, deviceId: d.id });
      await link(t, { userId: u.id, notificationId: n.id });
    }
    await report(d.uniqueId, { alarm: 'powerCut' });
    const bodyOf = (id: number) => mail.sent.filter((s) => s.userId === id).map((s) => s.message.body);
    expect(bodyOf(ana.id)).toEqual([`${d.name} alarme: corte de energia`]);
    expect(bodyOf(john.id)).toEqual([`${d.name} alarm: power cut`]);
    expect(bodyOf(lola.id)).toEqual([`${d.name} alarma: corte de energía`]);
  });

  it('applies `always` notifications of users who see the device, and geofenceIds filters', async () => {
    const tg = fake('telegram');
    getLiveServices(t.ctx).notifier.setNotificator(tg);
    const u = await createUser(t);
    const d = await createDevice(t);
    await link(t, { userId: u.id, deviceId: d.id });
    const g1 = await createObject(t, 'geofences', { name: 'g1', area: 'CIRCLE (0 0, 100)' });
    const g2 = await createObject(t, 'geofences', { name: 'g2', area: 'CIRCLE (0 0, 200)' });
    await link(t, { deviceId: d.id, geofenceId: g1.id });
    await link(t, { deviceId: d.id, geofenceId: g2.id });
    const n = await createObject(t, 'notifications', {
      type: 'geofenceEnter',
      always: true,
      notificators: 'telegram',
      attributes: { geofenceIds: String(g2.id) },
    });
    await link(t, { userId: u.id, notificationId: n.id });
    const live = getLive(t.ctx);
    await live.ingest({
      uniqueId: d.uniqueId,
      protocol: 'osmand',
      fixTime: laterFixTime(),
      latitude: 1,
      longitude: 1,
    });
    await live.ingest({
      uniqueId: d.uniqueId,
      protocol: 'osmand',
      fixTime: laterFixTime(),
      latitude: 0,
      longitude: 0,
    });
    // the creator (admin, linked to device and notification) is a recipient too
    expect(tg.sent.filter((s) => s.userId === u.id).map((s) => s.message.body)).toEqual([
      `${d.name} entrou na cerca g2`,
    ]);
  });

  it('an event published while the live cache is stale is matched once the cache was read again', async () => {
    const mail = fake('mail');
    const { notifier } = getLiveServices(t.ctx);
    notifier.setNotificator(mail);
    const d = await createDevice(t);
    const n = await createObject(t, 'notifications', {
      type: 'alarm',
      notificators: 'mail',
      attributes: { alarms: 'sos' },
    });
    await link(t, { deviceId: d.id, notificationId: n.id });
    const live = getLive(t.ctx);
    live.invalidate(); // the next match needs the links: read on the pool first (queued), not synchronously
    notifier.onEvents([
      {
        id: 0,
        type: 'alarm',
        eventTime: new Date().toISOString(),
        deviceId: d.id,
        positionId: 0,
        geofenceId: 0,
        maintenanceId: 0,
        attributes: { alarm: 'sos' },
      },
    ]);
    expect(mail.sent).toEqual([]);
    await live.cache.freshAsync();
    for (let i = 0; i < 100 && !mail.sent.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(mail.sent.map((s) => s.message.body)).toEqual([`${d.name} alarme: SOS`]);
  });

  it('respects the notification calendar', async () => {
    const sms = fake('sms');
    getLiveServices(t.ctx).notifier.setNotificator(sms);
    const d = await createDevice(t);
    const ics = (start: string, end: string) =>
      Buffer.from(
        `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:${start}\r\nDTEND:${end}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
      ).toString('base64');
    const past = await createObject(t, 'calendars', {
      name: 'past',
      data: ics('20200101T000000Z', '20200102T000000Z'),
    });
    const n = await createObject(t, 'notifications', {
      type: 'ignitionOn',
      notificators: 'sms',
      calendarId: past.id,
    });
    await link(t, { deviceId: d.id, notificationId: n.id });
    await report(d.uniqueId, { ignition: false });
    await report(d.uniqueId, { ignition: true });
    expect(sms.sent).toHaveLength(0);
  });
});

describe('calendar', () => {
  const b64 = (body: string) =>
    Buffer.from(`BEGIN:VCALENDAR\nBEGIN:VEVENT\n${body}\nEND:VEVENT\nEND:VCALENDAR\n`).toString('base64');
  it('single events, daily and weekly recurrences, time zones', () => {
    const single = b64('DTSTART:20240501T080000Z\nDTEND:20240501T170000Z');
    expect(calendarActive(single, Date.parse('2024-05-01T12:00:00Z'))).toBe(true);
    expect(calendarActive(single, Date.parse('2024-05-01T18:00:00Z'))).toBe(false);
    const daily = b64('DTSTART:20240501T080000Z\nDTEND:20240501T170000Z\nRRULE:FREQ=DAILY');
    expect(calendarActive(daily, Date.parse('2024-06-10T09:00:00Z'))).toBe(true);
    expect(calendarActive(daily, Date.parse('2024-06-10T07:00:00Z'))).toBe(false);
    // 2024-05-01 is a Wednesday; weekdays only
    const weekdays = b64(
      'DTSTART:20240501T080000Z\nDTEND:20240501T170000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
    );
    expect(calendarActive(weekdays, Date.parse('2024-05-06T09:00:00Z'))).toBe(true); // Monday
    expect(calendarActive(weekdays, Date.parse('2024-05-04T09:00:00Z'))).toBe(false); // Saturday
    // 08:00 in São Paulo (UTC-3) = 11:00 UTC
    const sp = b64(
      'DTSTART;TZID=America/Sao_Paulo:20240501T080000\nDTEND;TZID=America/Sao_Paulo:20240501T090000',
    );
    expect(calendarActive(sp, Date.parse('2024-05-01T11:30:00Z'))).toBe(true);
    expect(calendarActive(sp, Date.parse('2024-05-01T08:30:00Z'))).toBe(false);
  });
});

describe('channel clients', () => {
  const user = { id: 7, email: 'ana@example.com', phone: '+5511999990000', attributes: '{}' } as User;

  it('mail speaks SMTP: EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA', async () => {
    const lines: string[] = [];
    const server = createNetServer((s) => {
      let inData = false;
      let buf = '';
      s.write('220 fake ESMTP\r\n');
      s.on('data', (chunk) => {
        buf += chunk.toString();
        let i: number;
        while ((i = buf.indexOf('\r\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 2);
          lines.push(line);
          if (inData) {
            if (line === '.') {
              inData = false;
              s.write('250 queued\r\n');
            }
            continue;
          }
          const cmd = line.split(' ')[0].toUpperCase();
          if (cmd === 'EHLO') s.write('250-fake\r\n250 AUTH PLAIN\r\n');
          else if (cmd === 'AUTH') s.write('235 ok\r\n');
          else if (cmd === 'DATA') {
            inData = true;
            s.write('354 go\r\n');
          } else if (cmd === 'QUIT') s.end('221 bye\r\n');
          else s.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await sendMail(
      { host: '127.0.0.1', port, secure: false, user: 'u', password: 'p', from: 'rastro@example.com' },
      'ana@example.com',
      'Alarm',
      'Truck 1 alarm: sos',
    );
    server.close();
    expect(lines).toContain('MAIL FROM:<rastro@example.com>');
    expect(lines).toContain('RCPT TO:<ana@example.com>');
    expect(lines).toContain(`AUTH PLAIN ${Buffer.from('\0u\0p').toString('base64')}`);
    expect(lines).toContain('Subject: Alarm');
    // the body as it is (ASCII) or in base64
    expect(
      lines.includes('Truck 1 alarm: sos') ||
        lines.includes(Buffer.from('Truck 1 alarm: sos').toString('base64')),
    ).toBe(true);
  });

  it('sms posts the template to the gateway and telegram calls sendMessage', async () => {
    const requests: Array<{ url: string; body: string; auth?: string }> = [];
    const server = createHttpServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        requests.push({ url: req.url ?? '', body, auth: req.headers.authorization });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cfg = loadNotificatorConfig({
      SMS_HTTP_URL: `${base}/sms`,
      SMS_HTTP_AUTHORIZATION: 'Bearer k',
      TELEGRAM_BOT_TOKEN: '123:abc',
      TELEGRAM_API_URL: base,
    });
    await smsNotificator(cfg).send(user, { subject: 's', body: 'hello "world"' }, {});
    await telegramNotificator(cfg).send(user, { subject: 's', body: 'hi' }, { telegramChatId: 42 });
    server.close();
    expect(requests[0]).toEqual({
      url: '/sms',
      body: JSON.stringify({ to: '+5511999990000', message: 'hello "world"' }),
      auth: 'Bearer k',
    });
    expect(requests[1].url).toBe('/bot123:abc/sendMessage');
    expect(JSON.parse(requests[1].body)).toEqual({ chat_id: 42, text: 'hi' });
    expect(smsNotificator(loadNotificatorConfig({})).configured()).toBe(false);
  });
});
