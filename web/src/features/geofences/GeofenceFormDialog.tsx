// The geofence form (dialog 'geofenceForm', props { form }): name (required, SPEC §5), description, colour, lock on
// enter / exit, speed limit in the user's speed unit (stored as `speedLimit` in knots), calendar, and the shape with
// its size and an "edit shape" button that puts it back on the map. Save = POST (new) or PUT /api/geofences.
import {
  Alert,
  Button,
  Checkbox,
  ColorInput,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  GEOFENCE_COLORS,
  UNIT_LABELS,
  geofenceShapeOf,
  parseGeofenceForm,
  type GeofenceFormValues,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { useSaveResource } from '../../api/resources.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { startGeofenceDrawing } from './drawing.ts';
import { measureText, numberLocale } from './measure.ts';
import { refusalMessage } from '../../api/http.ts';
import { fieldBinder, flagBinder } from '../../components/boundField.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useParsedForm } from '../../components/useParsedForm.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';

export function GeofenceFormDialog({
  props: { form: initial },
  onClose,
}: DialogComponentProps<'geofenceForm'>) {
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const save = useSaveResource('geofences');
  const {
    t,
    form: values,
    setForm,
    errors,
    err,
    busy,
    submit,
  } = useParsedForm({
    // the field errors are common validation texts
    ns: ['geofences', 'common'],
    initial,
    parse: (form) => {
      const r = parseGeofenceForm(form, units.speedUnit, ns);
      return r.ok ? { ok: true, value: r.geofence } : r;
    },
    save: async (geofence) => void (await save.mutateAsync(geofence)),
    failure: (e, t) => refusalMessage(e) ?? t('saveError'),
    what: 'geofence',
    onClose,
  });
  const { i18n } = useTranslation();
  const set = <K extends keyof GeofenceFormValues>(key: K, value: GeofenceFormValues[K]) =>
    setForm((v) => ({ ...v, [key]: value }));
  const field = fieldBinder({ t, values, set, err }, 'geofence');
  const flag = flagBinder({ t, values, set }, 'geofence');
  const shape = geofenceShapeOf(values.area);

  const editShape = () => {
    if (!shape) return;
    onClose();
    startGeofenceDrawing(values, shape, true);
  };

  const calendarOptions = useResourceOptions('calendars', { none: t('fields.noCalendar') });

  return (
    <Modal
      opened
      onClose={onClose}
      title={values.id > 0 ? t('editTitle') : t('addTitle')}
      data-testid="geofence-form"
    >
      <Stack gap="sm">
        <TextInput {...field('name')} data-autofocus />
        <Textarea {...field('description')} rows={2} />
        <ColorInput
          label={t('fields.color')}
          value={values.color}
          onChange={(c) => set('color', c)}
          swatches={[...GEOFENCE_COLORS]}
          swatchesPerRow={8}
          format="hex"
          error={err('color')}
          data-testid="geofence-color"
        />
        <Group grow>
          {(['Enter', 'Exit'] as const).map((on) => (
            <Checkbox key={on} {...flag(`lockOn${on}`)} data-testid={`geofence-lock-${on.toLowerCase()}`} />
          ))}
        </Group>
        <TextInput
          {...field('speedLimit')}
          label={t('fields.speedLimit', { unit: UNIT_LABELS[units.speedUnit] })}
          inputMode="decimal"
          data-testid="geofence-speed-limit"
        />
        <Select
          label={t('fields.calendar')}
          data={calendarOptions}
          value={String(values.calendarId)}
          onChange={(v) => set('calendarId', Number(v ?? 0))}
          allowDeselect={false}
          error={err('calendarId')}
          data-testid="geofence-calendar"
        />
        {/* the button goes under the shape's text when both do not fit (a phone): never cut short */}
        <Group justify="space-between" gap="xs">
          <Text size="sm" data-testid="geofence-form-shape">
            {t('fields.shape')}: {shape ? t(`shapes.${shape}`) : '—'} ·{' '}
            {measureText(values.area, units.distanceUnit, numberLocale(i18n.language), t('areaUndefined'))}
          </Text>
          <Button
            variant="light"
            size="xs"
            onClick={editShape}
            disabled={!shape}
            data-testid="geofence-edit-shape"
          >
            {t('editShape')}
          </Button>
        </Group>
        {errors.area && <Alert color="red">{err('area')}</Alert>}
        <SaveCancel
          onCancel={onClose}
          onSave={() => void submit()}
          loading={busy}
          cancelTestId="geofence-cancel"
          saveTestId="geofence-save"
        />
      </Stack>
    </Modal>
  );
}
