// The demo data of a first start (docs/demo-fleet.md): users of every role, drivers, nested groups, three
// geofences around São Paulo, notifications with colours and sounds, saved commands and the simulated devices.
// Written through the repositories (db/repos) in one asynchronous transaction (db/repos/query.ts inTransaction: on
// PostgreSQL a pooled connection, never the synchronous worker); it runs only while the store holds no device.
import type { AppContext } from '../../context.ts';
import { findDeviceCardAsync, setDeviceAttributes, storedDeviceCountAsync } from '../../db/repos/devices.ts';
import { addLinks, type Link } from '../../db/repos/links.ts';
import { insertObjectAsync, updateObjectAsync } from '../../db/repos/objects.ts';
import { inTransaction } from '../../db/repos/query.ts';
import { serverAttributesTextAsync, updateServerSettingsAsync } from '../../db/repos/server.ts';
import {
  anyDemoUser,
  centreMapIfUnset,
  driverIdByCode,
  insertDevices,
  simulatedDeviceIds,
  type NewDevice,
} from '../../db/repos/simulator.ts';
import type { SqlDatabase } from '../../db/sql.ts';
import { firstAdministratorIdAsync, insertUserRowAsync, setUserAttributes } from '../../db/repos/users.ts';
import { hashPassword } from '../../traccar/passwordHash.ts';
import { catalogEntry, type Category } from './catalog.ts';

export const DEMO_PASSWORD = 'demo123';
export const DEMO_USERS = {
  manager: 'gerente@rastro.demo',
  sub1: 'sub1@rastro.demo',
  sub2: 'sub2@rastro.demo',
  readonly: 'leitura@rastro.demo',
  driver: 'motorista@rastro.demo',
} as const;

export const DEMO_DRIVERS: Array<[name: string, uniqueId: string]> = [
  ['Ana Souza', 'MOT-001'],
  ['Bruno Lima', 'MOT-002'],
  ['Carla Mendes', 'MOT-003'],
  ['Diego Santos', 'MOT-004'],
  ['Eduarda Rocha', 'MOT-005'],
  ['Felipe Costa', 'MOT-006'],
];

export const DEMO_GEOFENCES = {
  circle: { name: 'Centro - Praça da Sé', area: 'CIRCLE (-23.5503 -46.6339, 800)', color: '#1e88e5' },
  polygon: {
    name: 'Avenida Paulista',
    area: 'POLYGON ((-23.5530 -46.6650, -23.5575 -46.6700, -23.5700 -46.6480, -23.5655 -46.6430, -23.5530 -46.6650))',
    color: '#43a047',
  },
  line: {
    name: 'Marginal Tietê',
    area: 'LINESTRING (-23.5195 -46.7000, -23.5140 -46.6650, -23.5160 -46.6300, -23.5230 -46.6000)',
    color: '#e53935',
  },
};

export interface SeedResult {
  seeded: boolean;
  deviceIds: number[];
}

/** Whether the store (or the seed's transaction) is still empty of fleet data (no device, no demo user). */
async function isEmptyFleet(db: SqlDatabase): Promise<boolean> {
  return (await storedDeviceCountAsync(db)) === 0 && !(await anyDemoUser(db));
}

/** Creates the simulated devices rastro-0001 … rastro-<count> that do not exist yet; returns all their ids. */
async function ensureDevices(
  ctx: AppContext,
  db: SqlDatabase,
  count: number,
  groupOf: (c: Category) => number,
): Promise<Map<string, number>> {
  const existing = new Map<string, number>();
  for (const r of await simulatedDeviceIds(db)) existing.set(r.uniqueId, r.id);
  const missing: NewDevice[] = [];
  for (let i = 1; i <= count; i++) {
    const e = catalogEntry(i, ctx.config.simSeed, ctx.config.ns);
    if (existing.has(e.uniqueId)) continue;
    missing.push({
      name: e.name,
      uniqueId: e.uniqueId,
      groupId: groupOf(e.category),
      phone: e.phone,
      model: e.model,
      category: e.category,
      attributes: JSON.stringify(e.attributes),
    });
  }
  for (const [uniqueId, id] of await insertDevices(db, missing)) existing.set(uniqueId, id);
  return existing;
}

/**
 * Seeds the demo on an empty store. The administrator (made by the core's ensureAdmin) sees everything; the
 * manager sees the light vehicles and vans through groups; sub-users, the read-only user and the QR driver see a few.
 */
export async function seedDemo(ctx: AppContext): Promise<SeedResult> {
  const count = ctx.config.simDevices;
  if (count <= 0 || !(await isEmptyFleet(ctx.store.sql))) return { seeded: false, deviceIds: [] };
  const hashed = await hashPassword(DEMO_PASSWORD);
  const deviceIds = await inTransaction(ctx.store.sql, (tx) => seedIn(ctx, tx, count, hashed));
  if (!deviceIds) return { seeded: false, deviceIds: [] };
  ctx.bus.emit('permissions');
  return { seeded: true, deviceIds };
}

/** The seed's writes in its transaction: the devices' ids, or null when another start seeded meanwhile. */
async function seedIn(
  ctx: AppContext,
  tx: SqlDatabase,
  count: number,
  hashed: string,
): Promise<number[] | null> {
  // another start may have seeded meanwhile (the hash is async)
  if (!(await isEmptyFleet(tx))) return null;
  const ns = ctx.config.ns;
  const adminId = await firstAdministratorIdAsync(tx);
  const admin = adminId === null ? undefined : { id: adminId };
  const links: Link[] = [];
  const link = (ownerType: string, ownerId: number, propertyType: string, propertyId: number) =>
    links.push({ ownerType, ownerId, propertyType, propertyId });
  const user = (email: string, name: string, extra: Record<string, unknown> = {}) =>
    insertUserRowAsync(tx, {
      name,
      email,
      hashedPassword: hashed,
      latitude: -23.5505,
      longitude: -46.6333,
      zoom: 12,
      attributes: '{}',
      ...extra,
    });
  const manager = await user(DEMO_USERS.manager, 'Gerente Demo', { userLimit: 10 });
  const sub1 = await user(DEMO_USERS.sub1, 'Subusuário 1');
  const sub2 = await user(DEMO_USERS.sub2, 'Subusuário 2');
  const readonly = await user(DEMO_USERS.readonly, 'Leitura Demo', { readonly: 1 });
  const qrDriver = await user(DEMO_USERS.driver, 'Motorista QR', {
    attributes: JSON.stringify({ [`${ns}.isQrDriverId`]: true }),
  });
  link('user', manager, 'managedUser', sub1);
  link('user', manager, 'managedUser', sub2);
  const owners = admin ? [admin.id, manager] : [manager];
  // a catalogue row every owner sees (the link's property type is the table's name in the singular)
  const owned = async (
    table: 'drivers' | 'geofences' | 'notifications' | 'commands',
    row: Record<string, unknown>,
  ) => {
    const id = await insertObjectAsync(tx, table, row);
    for (const o of owners) link('user', o, table.slice(0, -1), id);
    return id;
  };

  for (const [name, uniqueId] of DEMO_DRIVERS) await owned('drivers', { name, uniqueId, attributes: '{}' });

  const group = (name: string, parent = 0) =>
    insertObjectAsync(tx, 'groups', { name, groupId: parent, attributes: '{}' });
  const root = await group('Frota São Paulo');
  const light = await group('Leves', root);
  const heavy = await group('Pesados', root);
  const trailers = await group('Carretas', heavy);
  const utility = await group('Utilitários', root);
  const groupOf: Record<Category, number> = {
    car: light,
    motorcycle: light,
    pickup: light,
    truck: trailers,
    bus: heavy,
    van: utility,
  };
  if (admin) link('user', admin.id, 'group', root);
  link('user', manager, 'group', light);
  link('user', manager, 'group', utility);
  link('user', sub2, 'group', utility);

  for (const g of Object.values(DEMO_GEOFENCES)) {
    const id = await owned('geofences', {
      name: g.name,
      description: null,
      area: g.area,
      attributes: JSON.stringify({
        color: g.color,
        ...(g.area.startsWith('LINESTRING') ? { polylineDistance: 60 } : {}),
      }),
    });
    link('group', root, 'geofence', id);
  }

  const notification = (
    type: string,
    color: string,
    sound: string,
    attributes: Record<string, unknown> = {},
  ) =>
    owned('notifications', {
      type,
      description: null,
      always: 1,
      notificators: 'web',
      attributes: JSON.stringify({ [`${ns}.color`]: color, [`${ns}.sound`]: sound, ...attributes }),
    });
  await notification('alarm', 'red', 'audio3', {
    alarms: 'sos,powerCut,lowBattery,vibration,tampering,jamming',
  });
  await notification('geofenceEnter', 'soft-info', 'audio5');
  await notification('geofenceExit', 'info', 'audio6');
  await notification('ignitionOn', 'soft-green', 'audio1');
  await notification('ignitionOff', 'soft-yellow', 'audio2');
  await notification('deviceOverspeed', 'yellow', 'audio8');

  for (const [description, type] of [
    ['Bloquear motor', 'engineStop'],
    ['Desbloquear motor', 'engineResume'],
  ])
    await owned('commands', { description, type, textChannel: 0, attributes: '{}' });

  const devices = await ensureDevices(ctx, tx, count, (c) => groupOf[c]);
  const deviceIds = [...devices.values()].sort((a, b) => a - b);
  // the administrator sees every device directly too (its default list is its linked devices)
  if (admin) for (const id of deviceIds) link('user', admin.id, 'device', id);
  deviceIds.slice(0, 3).forEach((id) => link('user', sub1, 'device', id));
  deviceIds.slice(0, 4).forEach((id) => link('user', readonly, 'device', id));
  // QR check-in (docs/qr-driver.md): the QR driver stands for the first demo driver (QR password = the demo
  // password) and may take the first two vehicles, which accept QR check-in.
  const firstDriver = await driverIdByCode(tx, DEMO_DRIVERS[0]![1]);
  if (firstDriver !== undefined) {
    await setUserAttributes(tx, qrDriver, JSON.stringify({ [`${ns}.isQrDriverId`]: firstDriver }));
    await updateObjectAsync(tx, 'drivers', firstDriver, {
      attributes: JSON.stringify({ qrUsername: 'motorista', qrPassword: hashed }),
    });
  }
  for (const id of deviceIds.slice(0, 2)) {
    link('user', qrDriver, 'device', id);
    const attrs = JSON.parse((await findDeviceCardAsync(tx, id))?.attributes || '{}') as Record<
      string,
      unknown
    >;
    await setDeviceAttributes(tx, id, JSON.stringify({ ...attrs, [`${ns}.qrDriver`]: true }));
  }
  await addLinks(tx, links);
  const server = await serverAttributesTextAsync(tx);
  if (server !== undefined) {
    const attrs = JSON.parse(server || '{}') as Record<string, unknown>;
    // The demo turns on QR check-in and the stop / event marks of history (settings left as an admin set them).
    const demo: Record<string, unknown> = {};
    for (const key of ['qrDriverCheckin', 'showStops', 'showEvents'])
      if (attrs[`${ns}.${key}`] === undefined) demo[`${ns}.${key}`] = true;
    if (Object.keys(demo).length)
      await updateServerSettingsAsync(tx, { attributes: JSON.stringify({ ...attrs, ...demo }) });
  }

  // centre the map on São Paulo unless someone already chose a place
  await centreMapIfUnset(tx, -23.5505, -46.6333, 12);
  return deviceIds;
}
