// QR driver check-in on the server (SPEC §2 /qr-driver, §7 client A POST /qr-driver; rule: packages/domain
// qrDriver.ts; docs/qr-driver.md).
//   GET  /{ns}/qr-driver   the caller's state: enabled, driver, current vehicle, the vehicles it may take
//   POST /{ns}/qr-driver   {id, password?}: check in to device `id` (the driver becomes its driver), 0 = check out
// A check-in writes the device's qrDriverId and driverUniqueId (every later position carries the driver) and the
// user's {ns}.isQrDeviceId, stores a driverChanged event at once and, with the driver option "unlock device", sends
// engineResume. A check-out clears them and, with "lock without driver", sends engineStop after the lock timeout
// when the vehicle is stopped (the engine-block interlock decides). With "auto logout on ignition off", an
// ignition-off position checks the driver out and ends its sessions after the logout timeout.
// Timers live in memory: a restart forgets pending locks and logouts (docs/qr-driver.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  INTERLOCK_COMMAND,
  UNBLOCK_COMMAND,
  blockMaxSpeed,
  deviceQrDriverId,
  engineBlockDecision,
  isQrDriver,
  nsKey,
  qrCheckinEnabled,
  qrCheckinProblem,
  qrCheckinSchema,
  qrDeviceIdOf,
  qrDriverIdOf,
  qrDriverOptions,
  qrEnabledDevice,
  qrEngineButtons,
  qrEngineSchema,
  type Attributes,
  type Command,
  type Position,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { findDriver } from '../db/repos/catalog.ts';
import { deviceCards, findDeviceCardAsync, setDeviceAttributes } from '../db/repos/devices.ts';
import { inTransaction } from '../db/repos/query.ts';
import { deleteUserSessions } from '../db/repos/sessions.ts';
import { findUserByIdAsync, setUserAttributes } from '../db/repos/users.ts';
import type { SqlDatabase } from '../db/sql.ts';
import { edge, edgeValue } from '../edge.ts';
import { ApiError, tooManyRequests } from '../errors.ts';
import { invalidInput } from '../invalid.ts';
import { refused } from '../refusal.ts';
import { accessibleDevicesOf, canAccessDevice, usersWhoSeeDevice } from '../traccar/access.ts';
import { logActionIn } from '../traccar/audit.ts';
import { findUserAsync, requireUser, type UserRow } from '../traccar/auth.ts';
import { verifyQrPassword } from '../traccar/driverPassword.ts';
import { parseAttributes, type Row } from '../traccar/model.ts';
import { deliverCommand } from './commands.ts';
import { checkEngineBlock, logEngineDelivery } from './interlock.ts';
import type { LiveCore } from './ingest.ts';
import { storeEventIn } from './statusSweep.ts';

interface DeviceRow {
  id: number;
  name: string;
  uniqueId: string;
  attributes: string | null;
}

/** Wrong QR passwords allowed per driver user and window before check-in answers 429. */
export const QR_PASSWORD_FAILURES = 10;
export const QR_PASSWORD_WINDOW_MS = 15 * 60_000;

const timers = new WeakMap<AppContext, Map<string, NodeJS.Timeout>>();

function schedule(ctx: AppContext, key: string, ms: number, run: () => void): void {
  let map = timers.get(ctx);
  if (!map) {
    map = new Map();
    timers.set(ctx, map);
    const all = map;
    ctx.onClose.push(() => {
      for (const t of all.values()) clearTimeout(t);
      all.clear();
    });
  }
  const previous = map.get(key);
  if (previous) clearTimeout(previous);
  if (ms <= 0) {
    map.delete(key);
    run();
    return;
  }
  const t = setTimeout(() => {
    map.delete(key);
    run();
  }, ms);
  t.unref();
  map.set(key, t);
}

function cancel(ctx: AppContext, key: string): void {
  const map = timers.get(ctx);
  const t = map?.get(key);
  if (t) clearTimeout(t);
  map?.delete(key);
}

const deviceRow = (ctx: AppContext, id: number): Promise<DeviceRow | undefined> =>
  findDeviceCardAsync(ctx.store.sql, id);

/** What a check-out's writes leave to do once committed. */
interface CheckedOut {
  deviceId: number;
  driverId: number | null;
  /** The device's driver attributes were cleared (the device is announced driverless). */
  released: boolean;
}

const driverRow = async (ctx: AppContext, id: number) =>
  (await findDriver(ctx.store.sql, id)) as Row | undefined;

async function writeAttributes(
  db: SqlDatabase,
  table: 'devices' | 'users',
  id: number,
  attrs: Attributes,
): Promise<void> {
  await (table === 'devices' ? setDeviceAttributes : setUserAttributes)(db, id, JSON.stringify(attrs));
}

function command(deviceId: number, type: string, reason: string): Command {
  return { id: 0, deviceId, type, textChannel: false, description: null, attributes: { reason } };
}

export class QrDriverService {
  constructor(
    private readonly ctx: AppContext,
    private readonly live: LiveCore,
  ) {}

  private get ns(): string {
    return this.ctx.config.ns;
  }

  /** The driver record's QR options of a device's checked-in driver. */
  private async optionsOf(driverId: number) {
    const row = await driverRow(this.ctx, driverId);
    return { row, options: qrDriverOptions(row ? (parseAttributes(row.attributes) as Attributes) : null) };
  }

  /**
   * Checks `user` in to `deviceId` (rules already passed). The check-out of its previous vehicle, the device's and the
   * user's attributes and the action are ONE transaction (issue #30, session 33: on the write client on PostgreSQL,
   * the main thread free): a refused write stores none of them. What others are told comes after the commit.
   */
  async checkIn(
    user: UserRow,
    deviceId: number,
    driverId: number,
    req: FastifyRequest | null,
  ): Promise<void> {
    const { row: driver, options } = await this.optionsOf(driverId);
    const uniqueId = String(driver?.uniqueId ?? '');
    const current = qrDeviceIdOf(parseAttributes(user.attributes) as Attributes, this.ns);
    const left = await inTransaction(this.ctx.store.sql, async (tx) => {
      const out = current && current !== deviceId ? await this.checkOutIn(tx, user, req) : null;
      const device = (await findDeviceCardAsync(tx, deviceId))!;
      const attrs = parseAttributes(device.attributes) as Attributes;
      await writeAttributes(tx, 'devices', deviceId, {
        ...attrs,
        qrDriverId: driverId,
        driverUniqueId: uniqueId,
      });
      const fresh = (await findUserByIdAsync(tx, user.id))!;
      await writeAttributes(tx, 'users', user.id, {
        ...(parseAttributes(fresh.attributes) as Attributes),
        [nsKey(this.ns, 'isQrDeviceId')]: deviceId,
      });
      await logActionIn(tx, req, user.id, 'edit', 'device', deviceId, { qrCheckin: driverId });
      return out;
    });
    if (left) await this.afterCheckOut(left, false);
    cancel(this.ctx, `lock:${deviceId}`);
    cancel(this.ctx, `logout:${user.id}`);
    this.reload();
    await this.announce(deviceId, uniqueId);
    if (options.unlockDevice) this.send(deviceId, UNBLOCK_COMMAND, 'qrCheckin');
  }

  /**
   * Checks `user` out of its vehicle (if any); `lock`: apply the driver's lock-without-driver option. The writes are
   * one transaction, as checkIn's.
   */
  async checkOut(user: UserRow, req: FastifyRequest | null, lock = true): Promise<number | null> {
    const left = await inTransaction(this.ctx.store.sql, (tx) => this.checkOutIn(tx, user, req));
    if (!left) return null;
    await this.afterCheckOut(left, lock);
    return left.deviceId;
  }

  /** checkOut's writes through a transaction's handle: what afterCheckOut needs, null when it had no vehicle. */
  private async checkOutIn(
    tx: SqlDatabase,
    user: UserRow,
    req: FastifyRequest | null,
  ): Promise<CheckedOut | null> {
    const userAttrs = parseAttributes((await findUserByIdAsync(tx, user.id))?.attributes) as Attributes;
    const deviceId = qrDeviceIdOf(userAttrs, this.ns);
    const { [nsKey(this.ns, 'isQrDeviceId')]: _gone, ...rest } = userAttrs;
    await writeAttributes(tx, 'users', user.id, rest);
    if (!deviceId) return null;
    const device = await findDeviceCardAsync(tx, deviceId);
    const driverId = qrDriverIdOf(userAttrs, this.ns);
    let released = false;
    if (device) {
      const attrs = parseAttributes(device.attributes) as Attributes;
      if (deviceQrDriverId(attrs) === driverId) {
        const { qrDriverId: _d, driverUniqueId: _u, ...kept } = attrs;
        await writeAttributes(tx, 'devices', deviceId, kept);
        released = true;
      }
    }
    await logActionIn(tx, req, user.id, 'edit', 'device', deviceId, { qrCheckout: driverId });
    return { deviceId, driverId, released };
  }

  /** After a check-out's commit: the device published driverless, the lock without driver scheduled. */
  private async afterCheckOut({ deviceId, driverId, released }: CheckedOut, lock: boolean): Promise<void> {
    if (released) {
      this.reload();
      await this.announce(deviceId, null);
    }
    if (lock && driverId) {
      const { options } = await this.optionsOf(driverId);
      if (options.lockWithoutDriver)
        schedule(this.ctx, `lock:${deviceId}`, options.lockTimeoutMinutes * 60_000, () => {
          this.lockIfStopped(deviceId).catch((err: unknown) =>
            this.ctx.log.warn({ err, deviceId }, 'QR lock without driver failed'),
          );
        });
    }
  }

  /**
   * The device's driver changed outside /api (no 'changed' message from the API hook): this process's cache and the
   * other processes' (db/cluster.ts) read it again, before announce's message, so their sockets and their pipeline
   * (the driver stamped on positions) see the driver (issue #28).
   */
  private reload(): void {
    this.live.invalidate();
    this.ctx.cluster.publish({ t: 'changed' });
  }

  /** Publishes the device (its qrDriverId changed) and, on check-in, a driverChanged event at once. */
  private async announce(deviceId: number, driverUniqueId: string | null): Promise<void> {
    const position = await this.live.latestPositionAsync(deviceId);
    this.live.setLatestDriver(deviceId, driverUniqueId);
    await this.live.emitEvents(
      async (tx) =>
        driverUniqueId
          ? [await storeEventIn(tx, 'driverChanged', deviceId, position, { attributes: { driverUniqueId } })]
          : [],
      [deviceId],
    );
  }

  private send(deviceId: number, type: string, reason: string): void {
    deliverCommand(this.live, deviceId, command(deviceId, type, reason)).catch((err: unknown) =>
      this.ctx.log.warn({ err, deviceId, type }, 'QR driver command failed'),
    );
  }

  /** The lock of "lock without driver": only a stopped vehicle (the interlock's rule), and only still driverless. */
  private async lockIfStopped(deviceId: number): Promise<void> {
    // the speed limit as set now: the cache read on the pool (PostgreSQL: the timer never holds the main thread)
    const { serverAttrs } = await this.live.cache.freshAsync();
    const device = await deviceRow(this.ctx, deviceId);
    if (!device || deviceQrDriverId(parseAttributes(device.attributes) as Attributes) !== null) return;
    const decision = engineBlockDecision({
      position: await this.live.latestPositionAsync(deviceId),
      now: Date.now(),
      limitKmh: blockMaxSpeed(serverAttrs, this.ns),
      isAdmin: false,
      force: false,
    });
    if (!decision.allowed) {
      this.ctx.log.info({ deviceId }, 'QR lock without driver skipped: the vehicle is moving');
      return;
    }
    this.send(deviceId, INTERLOCK_COMMAND, 'qrLockWithoutDriver');
  }

  /** Ignition off on a vehicle with a QR driver whose option asks for it: check out, then end its sessions. */
  async onPosition(p: Position): Promise<void> {
    if (p.attributes.ignition !== false) return;
    const attrs = this.live.cache.deviceAttrs.get(p.deviceId);
    const driverId = deviceQrDriverId(attrs as Attributes | undefined);
    if (driverId === null) return;
    const { options } = await this.optionsOf(driverId);
    if (!options.logoutOnIgnitionOff) return;
    for (const userId of await usersWhoSeeDevice(this.ctx, p.deviceId)) {
      const user = await findUserAsync(this.ctx, userId);
      if (!user) continue;
      const ua = parseAttributes(user.attributes) as Attributes;
      if (qrDeviceIdOf(ua, this.ns) !== p.deviceId || qrDriverIdOf(ua, this.ns) !== driverId) continue;
      schedule(this.ctx, `logout:${userId}`, options.logoutTimeoutMinutes * 60_000, () => {
        findUserAsync(this.ctx, userId)
          .then(async (now) => {
            if (!now || qrDeviceIdOf(parseAttributes(now.attributes) as Attributes, this.ns) !== p.deviceId)
              return;
            await this.checkOut(now, null);
            await deleteUserSessions(this.ctx.store.sql, userId);
            this.ctx.bus.emit('signedOut', userId);
          })
          .catch((err: unknown) =>
            this.ctx.log.error({ err, userId }, 'QR driver: ending its sessions failed'),
          );
      });
    }
  }
}

const services = new WeakMap<AppContext, QrDriverService>();

export function registerQrDriver(app: FastifyInstance, ctx: AppContext, live: LiveCore): QrDriverService {
  const service = new QrDriverService(ctx, live);
  services.set(ctx, service);
  const ns = ctx.config.ns;
  const off = live.subscribe({
    positions(ps) {
      for (const p of ps)
        service
          .onPosition(p)
          .catch((err: unknown) =>
            ctx.log.error({ err, deviceId: p.deviceId }, 'QR driver: ignition off failed'),
          );
    },
  });
  ctx.onClose.push(() => off());

  const qrFailures = new Map<number, number[]>();

  /** The signed-in QR driver, or 403 in the caller's language. */
  async function driverCaller(req: FastifyRequest): Promise<{ user: UserRow; driverId: number | null }> {
    const user = await requireUser(ctx, req);
    const attrs = parseAttributes(user.attributes) as Attributes;
    if (!isQrDriver({ attributes: attrs }, ns)) throw refused(ctx, req, user, 'qrDriver.noDriver');
    return { user, driverId: qrDriverIdOf(attrs, ns) };
  }

  // the server's QR settings as set now: the live cache read on the pool (freshAsync; PostgreSQL: issue #30)
  const settings = async () => (await live.cache.freshAsync()).serverAttrs as Attributes;

  // QR drivers only (driverCaller's 403); bad input answers the catalogue's message (the edge's translated 400)
  app.get(`/${ns}/qr-driver`, edge({ need: 'signedIn' }), async (req) => {
    const { user, driverId } = await driverCaller(req);
    const driver = driverId ? await driverRow(ctx, driverId) : undefined;
    const serverAttrs = await settings();
    const current = qrDeviceIdOf(parseAttributes(user.attributes) as Attributes, ns);
    const rows: DeviceRow[] = await deviceCards(ctx.store.sql);
    const devices = (await accessibleDevicesOf(ctx, user, rows)).map((d) => {
      const a = parseAttributes(d.attributes) as Attributes;
      const taken = deviceQrDriverId(a);
      return {
        id: d.id,
        name: d.name,
        plate: typeof a.placa === 'string' ? a.placa : typeof a.plate === 'string' ? a.plate : null,
        qrEnabled: qrEnabledDevice(a, ns),
        takenByOther: taken !== null && taken !== driverId,
      };
    });
    return {
      enabled: qrCheckinEnabled(serverAttrs, ns),
      lockButtons: qrEngineButtons(serverAttrs, ns),
      driver: driver
        ? {
            id: driver.id,
            name: driver.name,
            uniqueId: driver.uniqueId,
            passwordRequired: !!(parseAttributes(driver.attributes) as Attributes).qrPassword,
          }
        : null,
      deviceId: current,
      devices,
    };
  });

  const checkinEdge = edge({ body: qrCheckinSchema, need: 'signedIn', invalid: 'qrDriver.deviceRequired' });
  app.post(`/${ns}/qr-driver`, checkinEdge, async (req) => {
    const { user, driverId } = await driverCaller(req);
    const { id, password } = edgeValue(qrCheckinSchema, req.body);
    if (id === 0) {
      const left = await service.checkOut(user, req);
      return { deviceId: null, left };
    }
    const device = (await canAccessDevice(ctx, user, id)) ? await deviceRow(ctx, id) : undefined;
    const driver = driverId ? await driverRow(ctx, driverId) : undefined;
    const passwordRequired = !!driver && !!(parseAttributes(driver.attributes) as Attributes).qrPassword;
    // Wrong QR passwords are limited like logins: QR_PASSWORD_FAILURES per user in QR_PASSWORD_WINDOW_MS, then 429.
    const failures = qrFailures.get(user.id)?.filter((at) => Date.now() - at < QR_PASSWORD_WINDOW_MS) ?? [];
    if (passwordRequired && failures.length >= QR_PASSWORD_FAILURES) {
      const wait = Math.ceil((QR_PASSWORD_WINDOW_MS - (Date.now() - failures[0]!)) / 1000);
      throw tooManyRequests(Math.max(1, wait));
    }
    const passwordOk = passwordRequired ? await verifyQrPassword(driver!, password ?? '') : true;
    if (passwordRequired && !passwordOk) qrFailures.set(user.id, [...failures, Date.now()]);
    else if (passwordOk) qrFailures.delete(user.id);
    const problem = qrCheckinProblem(
      {
        enabled: qrCheckinEnabled(await settings(), ns),
        driverId: driver ? driverId : null,
        device: device ? { attributes: parseAttributes(device.attributes) as Attributes } : null,
        passwordRequired,
        passwordOk,
      },
      ns,
    );
    if (problem === 'qrDriver.deviceNotFound') throw invalidInput(ctx, req, user, problem);
    if (problem === 'qrDriver.deviceTaken')
      throw new ApiError(409, invalidInput(ctx, req, user, problem).message, 'WebApplicationException');
    if (problem) throw refused(ctx, req, user, problem);
    await service.checkIn(user, id, driverId!, req);
    return { deviceId: id, left: null };
  });

  // The lock / unlock buttons of the driver's view (server setting "lock and unlock buttons"): only for the vehicle
  // the driver is on; a block goes through the engine-block interlock like any other (never while moving).
  const engineEdge = edge({ body: qrEngineSchema, need: 'signedIn', invalid: 'qrDriver.engineType' });
  app.post(`/${ns}/qr-driver/engine`, engineEdge, async (req) => {
    const { user } = await driverCaller(req);
    // made fresh here: the interlock below (checkEngineBlock) reads the cache in this same turn
    if (!qrEngineButtons(await settings(), ns)) throw refused(ctx, req, user, 'qrDriver.buttonsDisabled');
    const deviceId = qrDeviceIdOf(parseAttributes(user.attributes) as Attributes, ns);
    if (!deviceId || !(await canAccessDevice(ctx, user, deviceId)))
      throw invalidInput(ctx, req, user, 'qrDriver.notDriving');
    const { type } = edgeValue(qrEngineSchema, req.body);
    const decisions =
      type === INTERLOCK_COMMAND ? await checkEngineBlock(ctx, req, user, live, [deviceId], false) : null;
    const delivery = await deliverCommand(live, deviceId, command(deviceId, type, 'qrDriverButton'));
    await logEngineDelivery(ctx, req, user.id, deviceId, type, delivery.queued, decisions?.get(deviceId));
    return { deviceId, type, queued: delivery.queued };
  });

  return service;
}
