// Dialog `deviceEdit` (props { deviceId? }): every field of SPEC §3's device form plus installation data and
// photos, colours, icon, category, group, driver, QR-driver flag, odometer and engine hours (PUT accumulators).
// Validation messages of SPEC §5 come from the domain schema. Save = PUT when the id is > 0, else POST (after the
// device-limit check). The QR code and the printable sheet need the device saved first.
import {
  Alert,
  Button,
  ColorInput,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLink, IconPrinter, IconQrcode } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DEVICE_STATES, MAP_ICON_TYPES, canEditDevices, traccarName, type Device } from '@rastro/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api, refusalMessage } from '../../api/http.ts';
import { resourceKeys, useResourceList } from '../../api/resources.ts';
import { openDialog, type DialogComponentProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import {
  INSTALLATION_FIELDS,
  addDeviceDenial,
  deviceToForm,
  emptyDeviceForm,
  formToRequests,
  parseDeviceForm,
  type DeviceFormValues,
  type InstallationField,
  type TextField,
} from './deviceForm.ts';
import { DevicePhotos } from './DevicePhotos.tsx';

const propsSchema = z.object({ deviceId: z.number().int().optional() });

export function DeviceEditDialog({ props, onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('deviceEdit');
  const qc = useQueryClient();
  const parsedProps = propsSchema.safeParse(props);
  const [deviceId, setDeviceId] = useState(parsedProps.success ? (parsedProps.data.deviceId ?? 0) : 0);
  const liveDevice = useLive((s) => s.devices[deviceId]);
  const position = useLive((s) => s.positions[deviceId]);
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const headerLimit = useSession((s) => s.deviceLimit);
  const fetched = useQuery({
    queryKey: resourceKeys.item('devices', deviceId),
    queryFn: () => api.get<Device>(`/devices/${deviceId}`),
    enabled: deviceId > 0 && !liveDevice,
  });
  const device = liveDevice ?? fetched.data;
  const groups = useResourceList('groups', undefined, { staleTime: 60_000 });
  const drivers = useResourceList('drivers', undefined, { staleTime: 60_000 });
  const canSave = canEditDevices({ user, server, isPlus, ns }, deviceId > 0 ? 'edit' : 'create');

  const [initial, setInitial] = useState<DeviceFormValues>(emptyDeviceForm);
  const [values, setValues] = useState<DeviceFormValues>(emptyDeviceForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const loadedFor = useRef(0);

  useEffect(() => {
    if (deviceId > 0 && device && loadedFor.current !== deviceId) {
      loadedFor.current = deviceId;
      const f = deviceToForm(device, position, ns);
      setInitial(f);
      setValues(f);
    }
  }, [deviceId, device, position, ns]);

  const set = (k: TextField, v: string) => setValues((s) => ({ ...s, [k]: v }));
  const setInst = (k: InstallationField, v: string) =>
    setValues((s) => ({ ...s, installation: { ...s.installation, [k]: v } }));
  const err = (path: string) => (errors[path] ? t(errors[path], { ns: 'common' }) : undefined);

  const text = (k: TextField, extra: Record<string, unknown> = {}) => (
    <TextInput
      key={k}
      label={t(`fields.${k}`)}
      value={values[k]}
      onChange={(e) => set(k, e.currentTarget.value)}
      error={err(k)}
      data-testid={`devform-${k}`}
      {...extra}
    />
  );

  const save = async () => {
    setFormError(null);
    const parsed = parseDeviceForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    if (deviceId > 0 && !device) {
      setFormError('validation.deviceRequired');
      return;
    }
    setBusy(true);
    try {
      if (deviceId <= 0) {
        const own = Object.keys(useLive.getState().devices).length;
        const all = user?.administrator ? (await api.get<Device[]>('/devices', { all: true })).length : own;
        const denial = addDeviceDenial({
          headerLimit,
          server,
          user,
          ns,
          serverDeviceCount: all,
          userDeviceCount: own,
        });
        if (denial) {
          setFormError(denial);
          return;
        }
      }
      const { device: body, accumulators } = formToRequests(parsed.form, initial, values, device, ns);
      const saved =
        deviceId > 0
          ? await api.put<Device>(`/devices/${deviceId}`, { ...body, id: deviceId })
          : await api.post<Device>('/devices', { ...body, id: 0 });
      if (accumulators && deviceId > 0) {
        await api.put(`/devices/${saved.id}/accumulators`, { deviceId: saved.id, ...accumulators });
      }
      const live = useLive.getState();
      live.setDevices([...Object.values(live.devices).filter((d) => d.id !== saved.id), saved]);
      void qc.invalidateQueries({ queryKey: resourceKeys.all('devices') });
      notifications.show({ color: 'green', message: t('saved') });
      const f = deviceToForm(saved, useLive.getState().positions[saved.id], ns);
      loadedFor.current = saved.id;
      setInitial(f);
      setValues(f);
      setDeviceId(saved.id);
    } catch (e) {
      console.warn('device not saved', e);
      const status = (e as { status?: number }).status;
      const body = (e as { text?: string }).text ?? '';
      const fallback = /limit/i.test(body)
        ? t('validation.deviceLimitReached', { ns: 'common' })
        : t('saveError');
      notifications.show({ color: 'red', message: refusalMessage(e) ?? fallback });
      if (status === 400 && /accumulat|position/i.test(body)) setFormError('accumulatorsNeedPosition');
    } finally {
      setBusy(false);
    }
  };

  const groupOptions = useMemo(
    () => [
      { value: '0', label: t('none') },
      ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
    ],
    [groups.data, t],
  );
  const driverOptions = useMemo(
    () => (drivers.data ?? []).map((d) => ({ value: d.uniqueId, label: `${d.name} (${d.uniqueId})` })),
    [drivers.data],
  );
  const iconOptions = MAP_ICON_TYPES.map((k) => ({
    value: k,
    label: traccarName('categories', k, i18n.language),
  }));
  const saved = deviceId > 0;

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={saved ? t('editTitle', { name: device?.name ?? '' }) : t('addTitle')}
      data-testid="device-edit-dialog"
    >
      <Stack gap="sm">
        {!canSave && (
          <Alert color="yellow" data-testid="device-edit-readonly">
            {t('readonly')}
          </Alert>
        )}
        {formError && (
          <Alert color="red" data-testid="device-form-error">
            {formError.includes('.') ? t(formError, { ns: 'common' }) : t(formError)}
          </Alert>
        )}
        <Tabs defaultValue="general" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="general">{t('tabs.general')}</Tabs.Tab>
            <Tabs.Tab value="chip">{t('tabs.chip')}</Tabs.Tab>
            <Tabs.Tab value="vehicle">{t('tabs.vehicle')}</Tabs.Tab>
            <Tabs.Tab value="installation" data-testid="tab-installation">
              {t('tabs.installation')}
            </Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="general" pt="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {text('name', { withAsterisk: true })}
              {text('uniqueId', { withAsterisk: true })}
              <Select
                label={t('fields.groupId')}
                data={groupOptions}
                value={values.groupId || '0'}
                onChange={(v) => set('groupId', v ?? '0')}
                error={err('groupId')}
                data-testid="devform-groupId"
                comboboxProps={{ zIndex: 1000 }}
              />
              <Select
                label={t('fields.category')}
                data={iconOptions}
                value={values.category || null}
                onChange={(v) => set('category', v ?? '')}
                clearable
                data-testid="devform-category"
                comboboxProps={{ zIndex: 1000 }}
              />
              <Select
                label={t('fields.icon')}
                data={iconOptions}
                value={values.icon || null}
                onChange={(v) => set('icon', v ?? '')}
                clearable
                error={err('icon')}
                data-testid="devform-icon"
                comboboxProps={{ zIndex: 1000 }}
              />
              <Select
                label={t('fields.state')}
                data={DEVICE_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
                value={values.state || null}
                onChange={(v) => set('state', v ?? '')}
                clearable
                error={err('state')}
                data-testid="devform-state"
                comboboxProps={{ zIndex: 1000 }}
              />
              <ColorInput
                label={t('fields.color')}
                value={values.color}
                onChange={(v) => set('color', v)}
                error={err('color')}
                data-testid="devform-color-input"
                popoverProps={{ zIndex: 1000 }}
              />
              <ColorInput
                label={t('fields.colorExtra')}
                value={values.colorExtra}
                onChange={(v) => set('colorExtra', v)}
                error={err('colorExtra')}
                data-testid="devform-colorExtra-input"
                popoverProps={{ zIndex: 1000 }}
              />
              <Select
                label={t('fields.driverUniqueId')}
                data={driverOptions}
                value={values.driverUniqueId || null}
                onChange={(v) => set('driverUniqueId', v ?? '')}
                clearable
                searchable
                data-testid="devform-driver"
                comboboxProps={{ zIndex: 1000 }}
              />
              <Switch
                mt="lg"
                label={t('fields.qrDriver')}
                checked={values.qrDriver}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  setValues((s) => ({ ...s, qrDriver: checked }));
                }}
                data-testid="devform-qrDriver"
              />
            </SimpleGrid>
          </Tabs.Panel>

          <Tabs.Panel value="chip" pt="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {text('iccid')}
              {text('phone')}
              {text('operator')}
              {text('broker')}
              {text('apn')}
              {text('monthlyValue', { inputMode: 'decimal' })}
              {text('simActivationDate', { type: 'date' })}
              {text('simExpirationDate', { type: 'date' })}
            </SimpleGrid>
          </Tabs.Panel>

          <Tabs.Panel value="vehicle" pt="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {text('plate')}
              {text('renavam')}
              {text('brand')}
              {text('model')}
              {text('technology')}
              {text('protocol')}
              {text('fuelTank', { inputMode: 'decimal' })}
              {text('odometer', { inputMode: 'decimal', description: t('hints.odometer') })}
              {text('engineHours', { inputMode: 'decimal', description: t('hints.engineHours') })}
            </SimpleGrid>
          </Tabs.Panel>

          <Tabs.Panel value="installation" pt="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {INSTALLATION_FIELDS.filter((k) => k !== 'observation' && k !== 'address').map((k) => (
                <TextInput
                  key={k}
                  label={t(`installation.${k}`)}
                  type={k === 'date' ? 'date' : k === 'email' ? 'email' : 'text'}
                  value={values.installation[k]}
                  onChange={(e) => setInst(k, e.currentTarget.value)}
                  error={err(`installation.${k}`)}
                  data-testid={`installation-${k}`}
                />
              ))}
            </SimpleGrid>
            <Textarea
              mt="sm"
              label={t('installation.address')}
              value={values.installation.address}
              onChange={(e) => setInst('address', e.currentTarget.value)}
              error={err('installation.address')}
              data-testid="installation-address"
            />
            <Textarea
              mt="sm"
              label={t('installation.observation')}
              value={values.installation.observation}
              onChange={(e) => setInst('observation', e.currentTarget.value)}
              error={err('installation.observation')}
              data-testid="installation-observation"
            />
            <DevicePhotos deviceId={deviceId} device={device} canEdit={canSave} />
          </Tabs.Panel>
        </Tabs>

        <Group justify="space-between">
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconQrcode size={16} />}
              disabled={!saved}
              onClick={() => openDialog('deviceQr', { deviceId })}
              data-testid="device-open-qr"
            >
              {t('qr')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconLink size={16} />}
              disabled={!saved}
              onClick={() => openDialog('linkObjects', { owner: 'device', id: deviceId, name: values.name })}
              data-testid="device-link-objects"
            >
              {t('button', { ns: 'linkObjects' })}
            </Button>
            <Button
              variant="light"
              leftSection={<IconPrinter size={16} />}
              onClick={() => {
                if (!saved) setFormError('validation.deviceSaveFirst');
                else openDialog('devicePrint', { deviceId });
              }}
              data-testid="device-print"
            >
              {t('print')}
            </Button>
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={onClose} data-testid="device-cancel">
              {t('close')}
            </Button>
            <Button onClick={() => void save()} loading={busy} disabled={!canSave} data-testid="device-save">
              {t('save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
