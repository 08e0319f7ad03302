// The demo data of a first start (docs/demo-fleet.md): users of every role, drivers, nested groups, three
// geofences around São Paulo, notifications with colours and sounds, saved commands and the simulated devices.
// Written through the repositories (db/repos) in one transaction; it runs only while the store holds no device.
import type { AppContext } from '../../context.ts';
import { findDeviceCard, setDeviceAttributesInSeed, storedDeviceCount } from '../../db/repos/devices.ts';
import { addLinkInSeed } from '../../db/repos/links.ts';
import { insertObject, updateObject } from '../../db/repos/objects.ts';
import { serverAttributesText, updateServerSettings } from '../../db/repos/server.ts';
import {
  anyDemoUser,
  centreMapIfUnset,
  driverIdByCode,
  prepareDeviceInsert,
  simulatedDeviceIds,
} from '../../db/repos/simulator.ts';
import { firstAdministratorId, insertUserRow, setUserAttributesInSeed } from '../../db/repos/users.ts';
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

/** Whether the store is still empty of fleet data (no device, no demo user). */
export function isEmptyFleet(ctx: AppContext): boolean {
  const sql = ctx.store.sql;
  return storedDeviceCount(sql) === 0 && !anyDemoUser(sql);
}

/** Creates the simulated devices rastro-0001 … rastro-<count> that do not exist yet; returns all their ids. */
export function ensureDevices(
  ctx: AppContext,
  count: number,
  groupOf: (c: Category) => number,
): Map<string, number> {
  const sql = ctx.store.sql;
  const existing = new Map<string, number>();
  for (const r of simulatedDeviceIds(sql)) existing.set(r.uniqueId, r.id);
  const add = prepareDeviceInsert(sql);
  sql.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const e = catalogEntry(i, ctx.config.simSeed, ctx.config.ns);
      if (existing.has(e.uniqueId)) continue;
      const id = add({
        name: e.name,
        uniqueId: e.uniqueId,
        groupId: groupOf(e.category),
        phone: e.phone,
        model: e.model,
        category: e.category,
        attributes: JSON.stringify(e.attributes),
      });
      existing.set(e.uniqueId, id);
    }
  })();
  return existing;
}

/**
 * Seeds the demo on an empty store. The administrator (made by the core's ensureAdmin) sees everything; the
 * manager sees the light vehicles and vans through groups; sub-users, the read-only user and the QR driver see a few.
 */
export async function seedDemo(ctx: AppContext): Promise<SeedResult> {
  const count = ctx.config.simDevices;
  if (count <= 0 || !isEmptyFleet(ctx)) return { seeded: false, deviceIds: [] };
  const ns = ctx.config.ns;
  const sql = ctx.store.sql;
  const hashed = await hashPassword(DEMO_PASSWORD);
  // another start may have seeded meanwhile (the hash is async)
  if (!isEmptyFleet(ctx)) return { seeded: false, deviceIds: [] };

  let deviceIds: number[] = [];
  sql.transaction(() => {
    const adminId = firstAdministratorId(sql);
    const admin = adminId === null ? undefined : { id: adminId };
    const link = {
      run: (ownerType: string, ownerId: number, propertyType: string, propertyId: number) =>
        addLinkInSeed(sql, { ownerType, ownerId, propertyType, propertyId }),
    };
    const user = (email: string, name: string, extra: Record<string, unknown> = {}) =>
      insertUserRow(sql, {
        name,
        email,
        hashedPassword: hashed,
        latitude: -23.5505,
        longitude: -46.6333,
        zoom: 12,
        attributes: '{}',
        ...extra,
      });
    const manager = user(DEMO_USERS.manager, 'Gerente Demo', { userLimit: 10 });
    const sub1 = user(DEMO_USERS.sub1, 'Subusuário 1');
    const sub2 = user(DEMO_USERS.sub2, 'Subusuário 2');
    const readonly = user(DEMO_USERS.readonly, 'Leitura Demo', { readonly: 1 });
    const qrDriver = user(DEMO_USERS.driver, 'Motorista QR', {
      attributes: JSON.stringify({ [`${ns}.isQrDriverId`]: true }),
    });
    link.run('user', manager, 'managedUser', sub1);
    link.run('user', manager, 'managedUser', sub2);
    const owners = admin ? [admin.id, manager] : [manager];

    for (const [name, uniqueId] of DEMO_DRIVERS) {
      const id = insertObject(sql, 'drivers', { name, uniqueId, attributes: '{}' });
      for (const o of owners) link.run('user', o, 'driver', id);
    }

    const group = (name: string, parent = 0) =>
      insertObject(sql, 'groups', { name, groupId: parent, attributes: '{}' });
    const root = group('Frota São Paulo');
    const light = group('Leves', root);
    const heavy = group('Pesados', root);
    const trailers = group('Carretas', heavy);
    const utility = group('Utilitários', root);
    const groupOf: Record<Category, number> = {
      car: light,
      motorcycle: light,
      pickup: light,
      truck: trailers,
      bus: heavy,
      van: utility,
    };
    if (admin) link.run('user', admin.id, 'group', root);
    link.run('user', manager, 'group', light);
    link.run('user', manager, 'group', utility);
    link.run('user', sub2, 'group', utility);

    for (const g of Object.values(DEMO_GEOFENCES)) {
      const id = insertObject(sql, 'geofences', {
        name: g.name,
        description: null,
        area: g.area,
        attributes: JSON.stringify({
          color: g.color,
          ...(g.area.startsWith('LINESTRING') ? { polylineDistance: 60 } : {}),
        }),
      });
      link.run('group', root, 'geofence', id);
      for (const o of owners) link.run('user', o, 'geofence', id);
    }

    const notification = (
      type: string,
      color: string,
      sound: string,
      attributes: Record<string, unknown> = {},
    ) => {
      const id = insertObject(sql, 'notifications', {
        type,
        description: null,
        always: 1,
        notificators: 'web',
        attributes: JSON.stringify({ [`${ns}.color`]: color, [`${ns}.sound`]: sound, ...attributes }),
      });
      for (const o of owners) link.run('user', o, 'notification', id);
    };
    notification('alarm', 'red', 'audio3', { alarms: 'sos,powerCut,lowBattery,vibration,tampering,jamming' });
    notification('geofenceEnter', 'soft-info', 'audio5');
    notification('geofenceExit', 'info', 'audio6');
    notification('ignitionOn', 'soft-green', 'audio1');
    notification('ignitionOff', 'soft-yellow', 'audio2');
    notification('deviceOverspeed', 'yellow', 'audio8');

    for (const [description, type] of [
      ['Bloquear motor', 'engineStop'],
      ['Desbloquear motor', 'engineResume'],
    ]) {
      const id = insertObject(sql, 'commands', { description, type, textChannel: 0, attributes: '{}' });
      for (const o of owners) link.run('user', o, 'command', id);
    }

    const devices = ensureDevices(ctx, count, (c) => groupOf[c]);
    deviceIds = [...devices.values()].sort((a, b) => a - b);
    // the administrator sees every device directly too (its default list is its linked devices)
    if (admin) for (const id of deviceIds) link.run('user', admin.id, 'device', id);
    deviceIds.slice(0, 3).forEach((id) => link.run('user', sub1, 'device', id));
    deviceIds.slice(0, 4).forEach((id) => link.run('user', readonly, 'device', id));
    // QR check-in (docs/qr-driver.md): the QR driver stands for the first demo driver (QR password = the demo
    // password) and may take the first two vehicles, which accept QR check-in.
    const firstDriver = driverIdByCode(sql, DEMO_DRIVERS[0]![1]);
    if (firstDriver !== undefined) {
      setUserAttributesInSeed(sql, qrDriver, JSON.stringify({ [`${ns}.isQrDriverId`]: firstDriver }));
      updateObject(sql, 'drivers', firstDriver, {
        attributes: JSON.stringify({ qrUsername: 'motorista', qrPassword: hashed }),
      });
    }
    for (const id of deviceIds.slice(0, 2)) {
      link.run('user', qrDriver, 'device', id);
      const attrs = JSON.parse(findDeviceCard(sql, id)?.attributes || '{}') as Record<string, unknown>;
      setDeviceAttributesInSeed(sql, id, JSON.stringify({ ...attrs, [`${ns}.qrDriver`]: true }));
    }
    const server = serverAttributesText(sql);
    if (server !== undefined) {
      const attrs = JSON.parse(server || '{}') as Record<string, unknown>;
      // The demo turns on QR check-in and the stop / event marks of history (settings left as an admin set them).
      const demo: Record<string, unknown> = {};
      for (const key of ['qrDriverCheckin', 'showStops', 'showEvents'])
        if (attrs[`${ns}.${key}`] === undefined) demo[`${ns}.${key}`] = true;
      if (Object.keys(demo).length)
        updateServerSettings(sql, { attributes: JSON.stringify({ ...attrs, ...demo }) });
    }

    // centre the map on São Paulo unless someone already chose a place
    centreMapIfUnset(sql, -23.5505, -46.6333, 12);
  })();
  ctx.bus.emit('permissions');
  return { seeded: true, deviceIds };
}
