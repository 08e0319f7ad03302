// The repositories of the extension API (billing, share links, device images, logs, health; issue #30) on the
// store the tests run on: SQLite by default, PostgreSQL with RASTRO_TEST_DATABASE_URL, as repos.test.ts does for
// the Traccar layer's.
import { describe, expect, it } from 'vitest';
import {
  billingCustomerId,
  deleteInvoice,
  findInvoice,
  hasInvoiceDueIn,
  insertInvoice,
  integrationConfig,
  invoiceByExternalId,
  invoicesOfUser,
  invoicesOfUserIn,
  markInvoicesDueBefore,
  saveBillingCustomer,
  saveIntegrationConfig,
  setInvoiceCharge,
  setInvoiceStatus,
} from '../../src/db/repos/billing.ts';
import { actionsNewestFirst, insertActionAsync } from '../../src/db/repos/audit.ts';
import { deviceCountsByStatus } from '../../src/db/repos/devices.ts';
import { deleteObject, insertObjectAsync } from '../../src/db/repos/objects.ts';
import { insertToken } from '../../src/db/repos/sessions.ts';
import {
  insertShare,
  latestLiveShareExpiry,
  latestShareExpiry,
  listShares,
  listedShare,
  replaceShareToken,
  shareGuestToken,
} from '../../src/db/repos/shares.ts';
import { deleteUserRow, insertUserRowAsync, userAccountsAsync } from '../../src/db/repos/users.ts';
import { repoStore } from '../helpers/repoStore.ts';

const store = repoStore('repos-ext');

const newUser = (email: string) => insertUserRowAsync(store.sql, { name: email, email, attributes: '{}' });

describe('extension repositories', () => {
  it('billing: integrations and customers are replaced in place; invoices by user, status, month and charge', async () => {
    const db = store.sql;
    expect(await integrationConfig(db, 'payment')).toBeUndefined();
    await saveIntegrationConfig(db, 'payment', '{"provider":"none"}');
    await saveIntegrationConfig(db, 'payment', '{"provider":"asaas"}');
    await saveIntegrationConfig(db, 'invoice', '{"fine":2}');
    expect(await integrationConfig(db, 'payment')).toBe('{"provider":"asaas"}');
    expect(await integrationConfig(db, 'invoice')).toBe('{"fine":2}');

    const u = await newUser('billed@example.com');
    const other = await newUser('other@example.com');
    expect(await billingCustomerId(db, u, 'asaas')).toBeUndefined();
    await saveBillingCustomer(db, u, 'asaas', 'cus_1');
    await saveBillingCustomer(db, u, 'asaas', 'cus_2');
    await saveBillingCustomer(db, other, 'asaas', 'cus_9');
    expect(await billingCustomerId(db, u, 'asaas')).toBe('cus_2');
    expect(await billingCustomerId(db, u, 'other')).toBeUndefined();

    const invoice = (userId: number, dueDate: string, status = 'TARKAN_GENERATED') =>
      insertInvoice(db, {
        userId,
        dueDate,
        value: 49.9,
        status,
        description: 'm',
        createdAt: '2026-01-01T00:00:00Z',
      });
    const jan = await invoice(u, '2026-01-10');
    const mar = await invoice(u, '2026-03-10', 'PENDING');
    const feb = await invoice(u, '2026-02-10', 'RECEIVED');
    const feb2 = await invoice(u, '2026-02-10', 'PENDING');
    const others = await invoice(other, '2026-01-05', 'PENDING');
    expect(jan).toBeGreaterThan(0);
    expect(mar).toBeGreaterThan(jan);
    expect(await findInvoice(db, jan)).toMatchObject({
      userId: u,
      dueDate: '2026-01-10',
      value: 49.9,
      paidDate: null,
    });

    // latest due date first, the later id first on a tie; open ones oldest first, only the statuses asked
    expect((await invoicesOfUser(db, u)).map((i) => i.id)).toEqual([mar, feb2, feb, jan]);
    const open = await invoicesOfUserIn(db, u, ['TARKAN_GENERATED', 'PENDING', 'OVERDUE']);
    expect(open.map((i) => i.id)).toEqual([jan, feb2, mar]);
    expect(open[0]).toEqual({
      id: jan,
      dueDate: '2026-01-10',
      value: 49.9,
      status: 'TARKAN_GENERATED',
      invoiceUrl: null,
    });
    expect(await invoicesOfUserIn(db, u, [])).toEqual([]);

    expect(await hasInvoiceDueIn(db, u, '2026-02')).toBe(true);
    expect(await hasInvoiceDueIn(db, u, '2026-04')).toBe(false);
    expect(await hasInvoiceDueIn(db, other, '2026-02')).toBe(false);

    // passed open invoices become OVERDUE: jan and feb2 of u, the other user's; not mar (due later), not feb (paid)
    expect(await markInvoicesDueBefore(db, ['TARKAN_GENERATED', 'PENDING'], '2026-03-01', 'OVERDUE')).toBe(3);
    expect((await findInvoice(db, feb))?.status).toBe('RECEIVED');
    expect((await findInvoice(db, mar))?.status).toBe('PENDING');
    expect((await findInvoice(db, others))?.status).toBe('OVERDUE');

    await setInvoiceCharge(db, mar, { status: 'PENDING', externalId: 'pay_1', invoiceUrl: 'https://pay/1' });
    expect(await invoiceByExternalId(db, 'pay_1')).toEqual({ id: mar, userId: u });
    expect(await invoiceByExternalId(db, 'pay_2')).toBeUndefined();
    await setInvoiceStatus(db, mar, 'RECEIVED', '2026-03-09');
    expect(await findInvoice(db, mar)).toMatchObject({
      status: 'RECEIVED',
      paidDate: '2026-03-09',
      invoiceUrl: 'https://pay/1',
    });
    await setInvoiceStatus(db, mar, 'CANCELED', null);
    expect((await findInvoice(db, mar))?.paidDate).toBeNull();
    await deleteInvoice(db, jan);
    expect(await findInvoice(db, jan)).toBeUndefined();

    expect((await userAccountsAsync(db)).find((a) => a.id === u)).toEqual({
      id: u,
      administrator: 0,
      disabled: 0,
      attributes: '{}',
    });
  });

  it('shares: listed with the names of their target and creator as they are now, else as stored', async () => {
    const db = store.sql;
    const ana = await newUser('ana-share@example.com');
    const bia = await newUser('bia-share@example.com');
    const gone = await newUser('gone-share@example.com');
    const guest = await newUser('ana-share@example.com:u-9');
    const device = await insertObjectAsync(db, 'devices', {
      name: 'Truck 9',
      uniqueId: 'u-9',
      groupId: 0,
      calendarId: 0,
      disabled: 0,
      attributes: '{}',
    });
    const group = await insertObjectAsync(db, 'groups', { name: 'North', groupId: 0, attributes: '{}' });
    const share = (
      creatorId: number,
      target: { deviceId?: number; groupId?: number },
      until: string,
      n: number,
    ) =>
      insertShare(db, {
        creatorId,
        guestId: guest,
        token: `tok-${n}`,
        tokenId: `hash-${n}`,
        deviceId: target.deviceId ?? null,
        groupId: target.groupId ?? null,
        expirationTime: until,
        createdAt: '2026-01-01T00:00:00.000Z',
        targetName: `stored ${n}`,
        creatorName: `creator ${n}`,
      });
    const s1 = await share(ana, { deviceId: device }, '2030-01-01T00:00:00.000Z', 1);
    const s2 = await share(bia, { groupId: group }, '2031-01-01T00:00:00.000Z', 2);
    const s3 = await share(gone, { deviceId: 999_999 }, '2029-01-01T00:00:00.000Z', 3);
    await deleteUserRow(db, gone);
    expect(s2).toBeGreaterThan(s1);

    const names = async (ids: number[] | null) =>
      (await listShares(db, ids)).map((r) => [r.id, r.name, r.creatorName]);
    expect(await names(null)).toEqual([
      [s1, 'Truck 9', 'ana-share@example.com'],
      [s2, 'North', 'bia-share@example.com'],
      [s3, 'stored 3', 'creator 3'],
    ]);
    expect(await names([bia, gone])).toEqual([
      [s2, 'North', 'bia-share@example.com'],
      [s3, 'stored 3', 'creator 3'],
    ]);
    expect(await names([])).toEqual([]);
    await deleteObject(db, 'devices', device);
    expect(await listedShare(db, s1)).toEqual({
      id: s1,
      creatorId: ana,
      token: 'tok-1',
      deviceId: device,
      groupId: null,
      expirationTime: '2030-01-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      name: 'stored 1',
      creatorName: 'ana-share@example.com',
    });
    expect(await listedShare(db, 999_999)).toBeUndefined();

    // the guest's latest expiry: every share's (gateway mode), or only those whose token lives (embedded)
    expect(await latestShareExpiry(db, guest)).toBe('2031-01-01T00:00:00.000Z');
    expect(await latestShareExpiry(db, ana)).toBeNull();
    await insertToken(db, {
      id: 'hash-1',
      userId: guest,
      expiresAt: '2030-01-01T00:00:00.000Z',
      kind: 'api',
      sessionId: null,
    });
    expect(await latestLiveShareExpiry(db, guest)).toBe('2030-01-01T00:00:00.000Z');

    expect(await shareGuestToken(db, s2)).toEqual({ guestId: guest, token: 'tok-2' });
    await replaceShareToken(db, s2, {
      token: 'tok-2b',
      tokenId: 'hash-2b',
      expirationTime: '2032-01-01T00:00:00.000Z',
    });
    expect(await shareGuestToken(db, s2)).toEqual({ guestId: guest, token: 'tok-2b' });
    expect(await latestShareExpiry(db, guest)).toBe('2032-01-01T00:00:00.000Z');
    expect(await shareGuestToken(db, s1)).toEqual({ guestId: guest, token: 'tok-1' });
  });

  it('logs: actions of a period newest first, by or on a user, on a device, at most the limit', async () => {
    const db = store.sql;
    const actor = await newUser('actor-logs@example.com');
    const target = await newUser('target-logs@example.com');
    const act = (time: string, userId: number, objectType: string | null, objectId: number) =>
      insertActionAsync(db, {
        actionTime: time,
        address: '127.0.0.1',
        userId,
        actionType: 'edit',
        objectType,
        objectId,
        attributes: '{}',
      });
    await act('2027-05-01T10:00:00.000Z', actor, 'device', 901);
    await act('2027-05-01T11:00:00.000Z', target, 'device', 902);
    await act('2027-05-01T11:00:00.000Z', actor, 'user', target);
    await act('2027-05-01T12:00:00.000Z', actor, 'device', target); // a device whose id is the target user's
    await act('2027-05-02T09:00:00.000Z', actor, 'device', 901);
    await act('2027-05-03T09:00:00.000Z', target, 'user', actor); // after the period
    const from = '2027-05-01T00:00:00.000Z';
    const to = '2027-05-02T09:00:00.000Z';
    const seen = async (scope: Parameters<typeof actionsNewestFirst>[3], limit = 10) =>
      (await actionsNewestFirst(db, from, to, scope, limit)).map(
        (a) => `${a.actionTime.slice(8, 13)} ${a.objectType}`,
      );
    expect(await seen({ kind: 'server' })).toEqual([
      '02T09 device',
      '01T12 device',
      '01T11 user',
      '01T11 device',
      '01T10 device',
    ]);
    expect(await seen({ kind: 'server' }, 2)).toEqual(['02T09 device', '01T12 device']);
    expect(await seen({ kind: 'user', id: target })).toEqual(['01T11 user', '01T11 device']);
    expect(await seen({ kind: 'user', id: actor })).toEqual([
      '02T09 device',
      '01T12 device',
      '01T11 user',
      '01T10 device',
    ]);
    expect(await seen({ kind: 'device', id: 901 })).toEqual(['02T09 device', '01T10 device']);
    expect(await seen({ kind: 'device', id: target })).toEqual(['01T12 device']);
    const [newest] = await actionsNewestFirst(db, from, to, { kind: 'device', id: 902 }, 10);
    expect(newest).toMatchObject({
      userId: target,
      userEmail: 'target-logs@example.com',
      address: '127.0.0.1',
    });
  });

  it('health: devices counted per status, a missing status apart', async () => {
    const db = store.sql;
    const before = new Map((await deviceCountsByStatus(db)).map((r) => [r.status, r.n]));
    const device = (uniqueId: string, status: string | null) =>
      insertObjectAsync(db, 'devices', {
        name: uniqueId,
        uniqueId,
        status,
        groupId: 0,
        calendarId: 0,
        disabled: 0,
        attributes: '{}',
      });
    await device('h-1', 'online');
    await device('h-2', 'online');
    await device('h-3', 'offline');
    await device('h-4', null);
    const after = new Map((await deviceCountsByStatus(db)).map((r) => [r.status, r.n]));
    expect(after.get('online')).toBe((before.get('online') ?? 0) + 2);
    expect(after.get('offline')).toBe((before.get('offline') ?? 0) + 1);
    expect(after.get(null)).toBe((before.get(null) ?? 0) + 1);
    expect(typeof after.get('online')).toBe('number');
  });
});
