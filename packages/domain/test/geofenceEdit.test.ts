import { describe, expect, it } from 'vitest';
import {
  canFinishEditing,
  geofenceEditReducer,
  initialGeofenceEdit,
  isEditingOnMap,
  type GeofenceEditEvent,
  type GeofenceEditState,
} from '../src/geofenceEdit.ts';

const run = (events: GeofenceEditEvent[], s: GeofenceEditState = initialGeofenceEdit()) =>
  events.reduce(geofenceEditReducer, s);

describe('geofence editing steps (SPEC §4)', () => {
  it('circle: none → 1 → 2 → 3, reset after save', () => {
    let s = run([{ type: 'start', shape: 'circle' }]);
    expect(s.step).toBe(1);
    expect(isEditingOnMap(s)).toBe(true);
    s = run([{ type: 'complete' }], s);
    expect(s.step).toBe(1); // a circle needs its centre first
    s = run([{ type: 'setCenter' }], s);
    expect(s.step).toBe(2);
    expect(canFinishEditing(s)).toBe(false);
    s = run([{ type: 'complete' }], s);
    expect(s.step).toBe(3);
    expect(canFinishEditing(s)).toBe(true);
    expect(run([{ type: 'save' }], s)).toEqual({ step: 0, shape: null });
  });
  it('polygon completes from started; delete and cancel reset', () => {
    const s = run([{ type: 'start', shape: 'polygon' }, { type: 'setCenter' }, { type: 'complete' }]);
    expect(s).toEqual({ step: 3, shape: 'polygon' });
    expect(run([{ type: 'delete' }], s).step).toBe(0);
    expect(run([{ type: 'cancel' }], s).step).toBe(0);
    expect(isEditingOnMap(initialGeofenceEdit())).toBe(false);
  });
});
