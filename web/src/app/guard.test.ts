import { describe, expect, it } from 'vitest';
import type { User } from '@rastro/domain';
import { HttpError } from '../api/http.ts';
import { runGuard, type GuardEffects } from './guard.ts';

const admin = { id: 1, name: 'Admin', administrator: true, attributes: {} } as unknown as User;
const plain = { id: 2, name: 'Ana', administrator: false, attributes: {} } as unknown as User;
const qrDriver = {
  id: 3,
  name: 'Motorista',
  administrator: false,
  attributes: { 'rastro.isQrDriverId': 7 },
} as unknown as User;

function effects(opts: {
  server?: boolean;
  serverFails?: boolean;
  user?: User | null;
  session?: User | null | Error;
  devicesFail?: Error;
  share?: string;
}) {
  const log: string[] = [];
  let hasServer = !!opts.server;
  let user = opts.user ?? null;
  const fx: GuardEffects = {
    hasServer: () => hasServer,
    loadServer: async () => {
      log.push('server');
      if (opts.serverFails) throw new HttpError(0, 'Failed to fetch');
      hasServer = true;
    },
    currentUser: () => user,
    checkSession: async () => {
      log.push('session');
      if (opts.session instanceof Error) throw opts.session;
      user = opts.session ?? null;
      return user;
    },
    loadDevices: async () => {
      log.push('devices');
      if (opts.devicesFail) throw opts.devicesFail;
    },
    shareToken: () => opts.share ?? null,
  };
  return { fx, log };
}

describe('navigation guard (SPEC §2)', () => {
  it('lets /maintenance through without touching the server', async () => {
    const { fx, log } = effects({ serverFails: true });
    expect(await runGuard({ pathname: '/maintenance' }, fx)).toEqual({ kind: 'pass' });
    expect(log).toEqual([]);
  });

  it("a share guest's lost session goes back to its link (which signs in again or says it expired)", async () => {
    const { fx } = effects({ server: true, session: null, share: 'abc 1' });
    expect(await runGuard({ pathname: '/devices/4' }, fx)).toEqual({
      kind: 'redirect',
      to: '/share/abc%201',
    });
    const refused = effects({ server: true, session: new HttpError(401, ''), share: 'tok' });
    expect(await runGuard({ pathname: '/home' }, refused.fx)).toEqual({ kind: 'redirect', to: '/share/tok' });
  });

  it('sends unknown paths to /home', async () => {
    const { fx } = effects({});
    expect(await runGuard({ pathname: '/nope/at/all' }, fx)).toEqual({ kind: 'redirect', to: '/home' });
  });

  it('public route: loads server info first, no session check', async () => {
    const { fx, log } = effects({});
    expect(await runGuard({ pathname: '/login' }, fx)).toEqual({ kind: 'pass' });
    expect(log).toEqual(['server']);
  });

  it('server info failing goes to /maintenance (public and signed-in alike)', async () => {
    expect(await runGuard({ pathname: '/login' }, effects({ serverFails: true }).fx)).toEqual({
      kind: 'redirect',
      to: '/maintenance',
    });
    expect(await runGuard({ pathname: '/devices' }, effects({ serverFails: true, user: plain }).fx)).toEqual({
      kind: 'redirect',
      to: '/maintenance',
    });
  });

  it('signed out on a protected route: server, session, then devices in map-wait mode', async () => {
    const { fx, log } = effects({ session: plain });
    expect(await runGuard({ pathname: '/devices' }, fx)).toEqual({ kind: 'pass' });
    expect(log).toEqual(['server', 'session', 'devices']);
  });

  it('does not load devices on driver routes', async () => {
    const { fx, log } = effects({ session: qrDriver });
    expect(await runGuard({ pathname: '/qr-driver/scan/12' }, fx)).toEqual({ kind: 'pass' });
    expect(log).toEqual(['server', 'session']);
  });

  it('no session: /login?to={path}, or /motorista?to={path} on driver routes', async () => {
    expect(
      await runGuard({ pathname: '/reports/stops', search: '?expand=true' }, effects({ session: null }).fx),
    ).toEqual({
      kind: 'redirect',
      to: '/login?to=%2Freports%2Fstops%3Fexpand%3Dtrue',
    });
    expect(await runGuard({ pathname: '/qr-driver' }, effects({ session: null }).fx)).toEqual({
      kind: 'redirect',
      to: '/motorista?to=%2Fqr-driver',
    });
    // 401 while loading devices is an auth failure too
    expect(
      await runGuard(
        { pathname: '/home' },
        effects({ session: plain, devicesFail: new HttpError(401, '') }).fx,
      ),
    ).toEqual({ kind: 'redirect', to: '/login?to=%2Fhome' });
  });

  it('any other error goes to /maintenance', async () => {
    expect(await runGuard({ pathname: '/home' }, effects({ session: new HttpError(0, 'down') }).fx)).toEqual({
      kind: 'redirect',
      to: '/maintenance',
    });
    expect(await runGuard({ pathname: '/home' }, effects({ session: new Error('boom') }).fx)).toEqual({
      kind: 'redirect',
      to: '/maintenance',
    });
    expect(
      await runGuard(
        { pathname: '/home' },
        effects({ session: plain, devicesFail: new HttpError(500, 'x') }).fx,
      ),
    ).toEqual({ kind: 'redirect', to: '/maintenance' });
  });

  it('already signed in with server info: passes without any call', async () => {
    const { fx, log } = effects({ server: true, user: plain });
    expect(await runGuard({ pathname: '/geofence' }, fx)).toEqual({ kind: 'pass' });
    expect(log).toEqual([]);
  });

  it('signed in on the login form: devices load once on the first protected page', async () => {
    const { fx, log } = effects({ server: true, user: plain });
    let loaded = false;
    fx.needsDevices = () => !loaded;
    const load = fx.loadDevices;
    fx.loadDevices = async () => {
      await load();
      loaded = true;
    };
    expect(await runGuard({ pathname: '/home' }, fx)).toEqual({ kind: 'pass' });
    expect(await runGuard({ pathname: '/devices' }, fx)).toEqual({ kind: 'pass' });
    expect(log).toEqual(['devices']);
  });

  it('/server-health is for administrators only; others go to /home', async () => {
    expect(await runGuard({ pathname: '/server-health' }, effects({ server: true, user: plain }).fx)).toEqual(
      {
        kind: 'redirect',
        to: '/home',
      },
    );
    expect(await runGuard({ pathname: '/server-health' }, effects({ server: true, user: admin }).fx)).toEqual(
      {
        kind: 'pass',
      },
    );
  });

  it('/qr-driver is for QR drivers only: anyone else goes to /home (issue #28)', async () => {
    for (const pathname of ['/qr-driver', '/qr-driver/scan/12']) {
      for (const user of [admin, plain])
        expect(await runGuard({ pathname }, effects({ server: true, user }).fx)).toEqual({
          kind: 'redirect',
          to: '/home',
        });
      expect(await runGuard({ pathname }, effects({ server: true, user: qrDriver }).fx)).toEqual({
        kind: 'pass',
      });
    }
    // the role attribute is read in the server's namespace
    const { fx } = effects({ server: true, user: qrDriver });
    fx.ns = () => 'other';
    expect(await runGuard({ pathname: '/qr-driver' }, fx)).toEqual({ kind: 'redirect', to: '/home' });
  });

  it('typed URLs: the QR driver and the share guest are sent to their own home, with nothing else rendered (issue #28)', async () => {
    const guest = {
      id: 9,
      name: 'Convidado',
      temporary: true,
      attributes: { isShared: true },
    } as unknown as User;
    for (const pathname of [
      '/devices',
      '/devices/1',
      '/history',
      '/reports/stops',
      '/asistente-demo',
      '/users',
    ]) {
      expect(await runGuard({ pathname }, effects({ server: true, user: qrDriver }).fx)).toEqual({
        kind: 'redirect',
        to: '/qr-driver',
      });
      if (pathname === '/devices/1') continue; // the guest's home is its vehicle's detail (next tests)
      expect(await runGuard({ pathname }, effects({ server: true, user: guest }).fx)).toEqual({
        kind: 'redirect',
        to: '/home',
      });
    }
    expect(await runGuard({ pathname: '/home' }, effects({ server: true, user: guest }).fx)).toEqual({
      kind: 'pass',
    });
  });

  it('a refused route makes no data request: a fresh QR driver typing /devices goes to its view without the device list (issue #28)', async () => {
    const { fx, log } = effects({ session: qrDriver });
    expect(await runGuard({ pathname: '/devices' }, fx)).toEqual({ kind: 'redirect', to: '/qr-driver' });
    expect(log).toEqual(['server', 'session']);
    // a sub-user refused /server-health: no devices for it either (the map's home asks for them itself)
    const other = effects({ session: plain });
    expect(await runGuard({ pathname: '/server-health' }, other.fx)).toEqual({
      kind: 'redirect',
      to: '/home',
    });
    expect(other.log).toEqual(['server', 'session']);
  });

  it("the share guest's home is its one shared vehicle, the map for a shared group (issue #28)", async () => {
    const guest = {
      id: 9,
      name: 'Convidado',
      temporary: true,
      attributes: { isShared: true },
    } as unknown as User;
    const one = effects({ session: guest });
    one.fx.deviceIds = () => [42];
    expect(await runGuard({ pathname: '/reports' }, one.fx)).toEqual({ kind: 'redirect', to: '/devices/42' });
    expect(one.log).toEqual(['server', 'session', 'devices']);
    expect(await runGuard({ pathname: '/devices/42' }, one.fx)).toEqual({ kind: 'pass' });
    // a driver route too (no devices for its own screen, but the guest's home needs them)
    const driverRoute = effects({ session: guest });
    driverRoute.fx.deviceIds = () => [42];
    expect(await runGuard({ pathname: '/qr-driver' }, driverRoute.fx)).toEqual({
      kind: 'redirect',
      to: '/devices/42',
    });
    expect(driverRoute.log).toEqual(['server', 'session', 'devices']);
    const group = effects({ server: true, user: guest });
    group.fx.deviceIds = () => [42, 43];
    expect(await runGuard({ pathname: '/reports' }, group.fx)).toEqual({ kind: 'redirect', to: '/home' });
  });

  it('the server settings and licence of the session decide: a sub-user without the users bit, a read-only autolink', async () => {
    const sub = {
      id: 4,
      name: 'Sub',
      attributes: { 'rastro.advancedPerms': `00800000${'0'.repeat(24)}` },
    } as unknown as User;
    const readonly = { id: 5, name: 'Leitura', readonly: true, attributes: {} } as unknown as User;
    const plus = { server: { attributes: { 'rastro.enableAdvancedPerms': true } }, isPlus: true };
    const run = (pathname: string, user: User) => {
      const { fx } = effects({ server: true, user });
      fx.viewer = () => plus;
      return runGuard({ pathname }, fx);
    };
    expect(await run('/devices', sub)).toEqual({ kind: 'pass' });
    expect(await run('/users', sub)).toEqual({ kind: 'redirect', to: '/home' });
    expect(await run('/users', readonly)).toEqual({ kind: 'redirect', to: '/home' });
    expect(await run('/autolink', readonly)).toEqual({ kind: 'redirect', to: '/home' });
    expect(await run('/geofence', readonly)).toEqual({ kind: 'pass' });
  });
});
