// SPEC §4 geofence map editing: none (0) → started (1) → circle centre set (2) → circle complete (3);
// polygons and lines complete straight from started. Save, delete and cancel reset to none.

export const GEOFENCE_EDIT_STEPS = { none: 0, started: 1, centerSet: 2, complete: 3 } as const;
export type GeofenceEditStep = (typeof GEOFENCE_EDIT_STEPS)[keyof typeof GEOFENCE_EDIT_STEPS];
export type GeofenceShape = 'circle' | 'polygon' | 'line';

export interface GeofenceEditState {
  step: GeofenceEditStep;
  shape: GeofenceShape | null;
}

export const initialGeofenceEdit = (): GeofenceEditState => ({ step: 0, shape: null });

export type GeofenceEditEvent =
  | { type: 'start'; shape: GeofenceShape }
  | { type: 'setCenter' }
  | { type: 'complete' }
  | { type: 'save' }
  | { type: 'delete' }
  | { type: 'cancel' };

/** Invalid transitions leave the state unchanged. */
export function geofenceEditReducer(state: GeofenceEditState, ev: GeofenceEditEvent): GeofenceEditState {
  switch (ev.type) {
    case 'start':
      return { step: 1, shape: ev.shape };
    case 'setCenter':
      return state.step === 1 && state.shape === 'circle' ? { ...state, step: 2 } : state;
    case 'complete':
      if (state.shape === 'circle') return state.step === 2 ? { ...state, step: 3 } : state;
      return state.step === 1 ? { ...state, step: 3 } : state;
    case 'save':
    case 'delete':
    case 'cancel':
      return initialGeofenceEdit();
  }
}

/** While editing on the map the side panel is hidden and Concluir / Cancel buttons are shown. */
export function isEditingOnMap(state: GeofenceEditState): boolean {
  return state.step !== 0;
}

export function canFinishEditing(state: GeofenceEditState): boolean {
  return state.step === 3;
}
