// The state of the device form (DeviceEditDialog.tsx): the device (live, or fetched), the form and its errors,
// and saving (the device-limit check before a POST, PUT of the accumulators, the live store updated).
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isDuplicateRefusal, type Device, type DeviceForm } from '@rastro/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, refusalMessage } from '../../api/http.ts';
import { resourceKeys } from '../../api/resources.ts';
import { fieldBinder } from '../../components/boundField.ts';
import { useCan } from '../../components/useCan.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import {
  addDeviceDenial,
  deviceToForm,
  emptyDeviceForm,
  formToRequests,
  parseDeviceForm,
  type DeviceFormValues,
  type InstallationField,
  type TextField,
} from './deviceForm.ts';

/** The device being edited: the live one, else fetched; `deviceId` becomes the new id once a new device is saved. */
export function useEditedDevice(startId: number) {
  const [deviceId, setDeviceId] = useState(startId);
  const liveDevice = useLive((s) => s.devices[deviceId]);
  const position = useLive((s) => s.positions[deviceId]);
  const fetched = useQuery({
    queryKey: resourceKeys.item('devices', deviceId),
    queryFn: () => api.get<Device>(`/devices/${deviceId}`),
    enabled: deviceId > 0 && !liveDevice,
  });
  return { deviceId, setDeviceId, device: liveDevice ?? fetched.data, position };
}

export function useDeviceEditForm(startId: number) {
  const { t } = useTranslation('deviceEdit');
  const qc = useQueryClient();
  const { deviceId, setDeviceId, device, position } = useEditedDevice(startId);
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const ns = useSession((s) => s.ns);
  const headerLimit = useSession((s) => s.deviceLimit);
  // the access table's device rights, as the list's add button and the detail's edit button ask them
  const canSave = useCan(deviceId > 0 ? 'device.edit' : 'device.create');

  const [initial, setInitial] = useState<DeviceFormValues>(emptyDeviceForm);
  const [values, setValues] = useState<DeviceFormValues>(emptyDeviceForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const loadedFor = useRef(0);

  const load = (f: DeviceFormValues) => {
    setInitial(f);
    setValues(f);
  };
  useEffect(() => {
    if (deviceId > 0 && device && loadedFor.current !== deviceId) {
      loadedFor.current = deviceId;
      load(deviceToForm(device, position, ns));
    }
  }, [deviceId, device, position, ns]);

  /** A refusal of the device limit (SPEC §5) before a new device is posted, or null. */
  const limitDenial = async () => {
    const own = Object.keys(useLive.getState().devices).length;
    const all = user?.administrator ? (await api.get<Device[]>('/devices', { all: true })).length : own;
    return addDeviceDenial({ headerLimit, server, user, ns, serverDeviceCount: all, userDeviceCount: own });
  };

  const failed = (e: unknown) => {
    console.warn('device not saved', e);
    const status = (e as { status?: number }).status;
    const body = (e as { text?: string }).text ?? '';
    // the identifier is another device's: said under the field (the tab opens), what was typed kept
    if (status !== undefined && isDuplicateRefusal(status, body)) {
      setErrors({ uniqueId: 'validation.deviceUniqueIdTaken' });
      return;
    }
    const fallback = /limit/i.test(body)
      ? t('validation.deviceLimitReached', { ns: 'common' })
      : t('saveError');
    notifications.show({ color: 'red', message: refusalMessage(e) ?? fallback });
    if (status === 400 && /accumulat|position/i.test(body)) setFormError('accumulatorsNeedPosition');
  };

  const saving = useMutation({
    mutationFn: async (form: DeviceForm) => {
      const denial = deviceId > 0 ? null : await limitDenial();
      if (denial) return setFormError(denial);
      const { device: body, accumulators } = formToRequests(form, initial, values, device, ns);
      const saved =
        deviceId > 0
          ? await api.put<Device>(`/devices/${deviceId}`, { ...body, id: deviceId })
          : await api.post<Device>('/devices', { ...body, id: 0 });
      if (accumulators && deviceId > 0) {
        await api.put(`/devices/${saved.id}/accumulators`, { deviceId: saved.id, ...accumulators });
      }
      useLive.getState().applyBatch({ devices: [saved] });
      void qc.invalidateQueries({ queryKey: resourceKeys.all('devices') });
      notifications.show({ color: 'green', message: t('saved') });
      loadedFor.current = saved.id;
      load(deviceToForm(saved, useLive.getState().positions[saved.id], ns));
      setDeviceId(saved.id);
    },
    onError: failed,
  });

  const save = () => {
    setFormError(null);
    const parsed = parseDeviceForm(values);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    if (deviceId > 0 && !device) return setFormError('validation.deviceRequired');
    saving.mutate(parsed.form);
  };

  const set = (k: TextField, v: string) => setValues((s) => ({ ...s, [k]: v }));
  const err = (path: string) => (errors[path] ? t(errors[path], { ns: 'common' }) : undefined);
  return {
    deviceId,
    device,
    canSave,
    values,
    set,
    /** A text field's label, value, change, error and test id `devform-<key>`. */
    field: fieldBinder({ t, values, set, err }, 'devform'),
    setInst: (k: InstallationField, v: string) =>
      setValues((s) => ({ ...s, installation: { ...s.installation, [k]: v } })),
    setQrDriver: (qrDriver: boolean) => setValues((s) => ({ ...s, qrDriver })),
    err,
    /** The paths with an error (the tabs show where they are, DeviceEditTabs.tsx). */
    errorPaths: Object.keys(errors),
    formError,
    setFormError,
    busy: saving.isPending,
    save,
  };
}

export type DeviceEditState = ReturnType<typeof useDeviceEditForm>;
