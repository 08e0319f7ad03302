import { describe, expect, it } from 'vitest';
import { linkableKinds, linkBody, linkLabel, LINK_LOAD_TIMEOUT_MS } from '../src/linkObjects.ts';

describe('link objects', () => {
  it('offers the kinds the server links for each owner', () => {
    expect(linkableKinds('device')).toEqual([
      'geofence',
      'notification',
      'driver',
      'attribute',
      'command',
      'maintenance',
    ]);
    expect(linkableKinds('group')).toEqual(linkableKinds('device'));
    expect(linkableKinds('user')).toEqual([
      'geofence',
      'notification',
      'driver',
      'calendar',
      'attribute',
      'command',
      'maintenance',
    ]);
  });

  it('builds the permission body and labels objects', () => {
    expect(linkBody('device', 4, 'geofence', 9)).toEqual({ deviceId: 4, geofenceId: 9 });
    expect(linkBody('user', 2, 'attribute', 3)).toEqual({ userId: 2, attributeId: 3 });
    expect(linkLabel({ id: 3, description: 'Velocidade', attribute: 'speed' })).toBe('Velocidade');
    expect(linkLabel({ id: 3, type: 'engineStop' })).toBe('engineStop');
    expect(linkLabel({ id: 3 })).toBe('#3');
    expect(LINK_LOAD_TIMEOUT_MS).toBe(15_000);
  });
});
