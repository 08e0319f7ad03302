import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAP_PREF as defaultMapPref } from '@rastro/domain';
import { usePrefs } from './prefs.ts';

beforeEach(() => {
  localStorage.clear();
  usePrefs.getState().reload();
});

describe('local-storage preferences (SPEC §3)', () => {
  it('defaults: not muted, map clustered with geofences shown', () => {
    const s = usePrefs.getState();
    expect(s.isMuted).toBe(false);
    expect(s.mapPref).toEqual(defaultMapPref);
    expect(s.mapPref.clustered).toBe(true);
    expect(s.mapPref.showGeofences).toBe(true);
    expect(s.rememberme).toBeNull();
  });

  it('writes each preference under its own key', () => {
    const s = usePrefs.getState();
    s.toggleMuted();
    s.setMapPref({ plate: true });
    s.setQuery('abc 123');
    s.setMapStyle('offline');
    s.setGroupPref({ '4': true });
    s.setRememberme('tok');
    expect(localStorage.getItem('isMuted')).toBe('true');
    expect(JSON.parse(localStorage.getItem('mapPref')!)).toEqual({ ...defaultMapPref, plate: true });
    expect(localStorage.getItem('query')).toBe('abc 123');
    expect(localStorage.getItem('mapStyle')).toBe('offline');
    expect(localStorage.getItem('groupPref')).toBe('{"4":true}');
    expect(localStorage.getItem('rememberme')).toBe('tok');
    s.setRememberme(null);
    expect(localStorage.getItem('rememberme')).toBeNull();
  });

  it('reads what is stored, tolerating bad JSON', () => {
    localStorage.setItem('isMuted', 'true');
    localStorage.setItem('mapPref', '{"clustered":false}');
    localStorage.setItem('groupPref', 'not json');
    localStorage.setItem('mapStyle', 'offline');
    usePrefs.getState().reload();
    const s = usePrefs.getState();
    expect(s.isMuted).toBe(true);
    expect(s.mapPref).toEqual({ ...defaultMapPref, clustered: false });
    expect(s.groupPref).toEqual({});
    expect(s.mapStyle).toBe('offline');
  });
});
