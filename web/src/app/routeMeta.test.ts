import { describe, expect, it } from 'vitest';
import { isExpanded, matchRoute, ROUTES } from './routeMeta.ts';

describe('routes of SPEC §2', () => {
  it('has every route of the spec with the meta fields', () => {
    const paths = ROUTES.map((r) => r.path);
    for (const p of [
      '/share/:token',
      '/login',
      '/register',
      '/login/recover/:token',
      '/motorista',
      '/maintenance',
      '/qr-driver',
      '/qr-driver/scan/:id',
      '/home',
      '/devices',
      '/devices/:deviceId',
      '/computed',
      '/autolink',
      '/autolink/:id',
      '/notifications',
      '/history',
      '/dashboard',
      '/reports',
      '/reports/resume',
      '/reports/travels',
      '/reports/stops',
      '/reports/events',
      '/reports/history',
      '/geofence',
      '/users',
      '/groups',
      '/commands',
      '/server-health',
      '/asistente-demo',
    ]) {
      expect(paths, p).toContain(p);
    }
    for (const r of ROUTES) {
      expect(Object.keys(r)).toEqual(
        expect.arrayContaining(['title', 'shown', 'backBtn', 'mobileBottom', 'allowExpand']),
      );
    }
  });

  it('matches parameters and trailing slashes; unknown paths give null', () => {
    expect(matchRoute('/devices/42')).toMatchObject({
      meta: { path: '/devices/:deviceId' },
      params: { deviceId: '42' },
    });
    expect(matchRoute('/devices/')?.meta.path).toBe('/devices');
    expect(matchRoute('/login/recover/abc%20d')?.params).toEqual({ token: 'abc d' });
    expect(matchRoute('/whatever')).toBeNull();
    expect(matchRoute('/')).toBeNull();
  });

  it('device detail goes back to /devices and is a mobile bottom sheet; /home shows no panel', () => {
    expect(matchRoute('/devices/1')?.meta).toMatchObject({ backBtn: '/devices', mobileBottom: true });
    expect(matchRoute('/home')?.meta.shown).toBe(false);
    expect(matchRoute('/server-health')?.meta.screen).toBe('serverHealth');
  });

  it('expand=true widens only routes that allow it', () => {
    const devices = matchRoute('/devices')!.meta;
    const groups = matchRoute('/groups')!.meta;
    expect(isExpanded(devices, '?expand=true')).toBe(true);
    expect(isExpanded(devices, '?expand=false')).toBe(false);
    expect(isExpanded(devices, '')).toBe(false);
    expect(isExpanded(groups, '?expand=true')).toBe(false);
  });
});
