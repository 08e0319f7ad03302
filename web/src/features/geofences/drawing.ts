// The geofence drawing flow (SPEC §2, §4): the panel hides while the user draws on the map (useUi().mapEditing
// shows Concluir / Cancel), then the form opens as a global dialog with the drawn area. The panel (and so the
// page) is unmounted meanwhile, so the flow lives here, outside React, and the form is the 'geofenceForm' dialog.
import { notifications } from '@mantine/notifications';
import { formatArea, parseArea, type GeofenceFormValues, type GeofenceShape } from '@rastro/domain';
import { openDialog } from '../../shell/dialogs.ts';
import { useUi } from '../../shell/ui.ts';
import { finishMapDraw, isMapDrawing, startMapDraw, stopMapDraw } from '../../components/mapDraw.ts';
import { i18n } from '../../i18n/index.ts';

export function openGeofenceForm(form: GeofenceFormValues): void {
  openDialog('geofenceForm', { form });
}

/**
 * Starts drawing. Without `editShape` the user draws a new `shape` and Cancel discards it; with `editShape` the
 * form's current area is put on the map to be changed, and Cancel goes back to the form unchanged.
 */
export function startGeofenceDrawing(
  form: GeofenceFormValues,
  shape: GeofenceShape,
  editShape = false,
): void {
  const initial = editShape ? parseArea(form.area) : null;
  const end = () => useUi.getState().setMapEditing(null);
  const cancel = () => {
    if (!isMapDrawing()) return;
    stopMapDraw();
    end();
    if (editShape) openGeofenceForm(form);
  };
  const finish = () => {
    const area = finishMapDraw();
    if (!area) {
      notifications.show({ color: 'yellow', message: i18n.t('geofences:drawIncomplete') });
      return;
    }
    end();
    openGeofenceForm({ ...form, area: formatArea(area) });
  };
  startMapDraw({
    shape,
    initial,
    color: form.color,
    onEscape: cancel,
    // a touch screen has no mouse to click nor Esc key: its hint says tap, and Cancel
    hint: i18n.t(`geofences:${touchScreen() ? 'hintTouch' : 'hint'}.${initial ? 'edit' : shape}`),
  });
  useUi.getState().setMapEditing({ onFinish: finish, onCancel: cancel });
}

/** A screen whose main pointer is a finger (a phone, a tablet). */
const touchScreen = (): boolean =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(pointer: coarse)').matches;
