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
import { z } from 'zod';
import { useResourceList, useSaveResource } from '../../api/resources.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { startGeofenceDrawing } from './drawing.ts';
import { measureText, numberLocale } from './measure.ts';
import { refusalMessage } from '../../api/http.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useParsedForm } from '../../components/useParsedForm.ts';

const formSchema = z.object({
  form: z.object({
    id: z.number().int().min(0),
    name: z.string(),
    description: z.string(),
    color: z.string(),
    calendarId: z.number().int().min(0),
    lockOnEnter: z.boolean(),
    lockOnExit: z.boolean(),
    speedLimit: z.string(),
    area: z.string(),
    attributes: z.record(z.string(), z.unknown()),
  }),
});

export function GeofenceFormDialog({ props, onClose }: DialogComponentProps) {
  const { t } = useTranslation('geofences');
  const parsed = formSchema.safeParse(props);
  if (!parsed.success) {
    return (
      <Modal opened onClose={onClose} title={t('addTitle')}>
        <Alert color="red">{t('saveError')}</Alert>
      </Modal>
    );
  }
  return <GeofenceForm initial={parsed.data.form as GeofenceFormValues} onClose={onClose} />;
}

function GeofenceForm({ initial, onClose }: { initial: GeofenceFormValues; onClose(): void }) {
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const calendars = useResourceList('calendars');
  const save = useSaveResource('geofences');
  const parsedForm = useParsedForm({
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
  const { t, form: values, setForm, errors, err, busy, submit } = parsedForm;
  const { i18n } = useTranslation();
  const set = <K extends keyof GeofenceFormValues>(key: K, value: GeofenceFormValues[K]) =>
    setForm((v) => ({ ...v, [key]: value }));
  const shape = geofenceShapeOf(values.area);

  const editShape = () => {
    if (!shape) return;
    onClose();
    startGeofenceDrawing(values, shape, true);
  };

  const calendarOptions = [
    { value: '0', label: t('fields.noCalendar') },
    ...(calendars.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
  ];

  return (
    <Modal
      opened
      onClose={onClose}
      title={values.id > 0 ? t('editTitle') : t('addTitle')}
      data-testid="geofence-form"
    >
      <Stack gap="sm">
        <TextInput
          label={t('fields.name')}
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={err('name')}
          data-autofocus
          data-testid="geofence-name"
        />
        <Textarea
          label={t('fields.description')}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={err('description')}
          rows={2}
          data-testid="geofence-description"
        />
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
          <Checkbox
            label={t('fields.lockOnEnter')}
            checked={values.lockOnEnter}
            onChange={(e) => set('lockOnEnter', e.currentTarget.checked)}
            data-testid="geofence-lock-enter"
          />
          <Checkbox
            label={t('fields.lockOnExit')}
            checked={values.lockOnExit}
            onChange={(e) => set('lockOnExit', e.currentTarget.checked)}
            data-testid="geofence-lock-exit"
          />
        </Group>
        <TextInput
          label={t('fields.speedLimit', { unit: UNIT_LABELS[units.speedUnit] })}
          value={values.speedLimit}
          onChange={(e) => set('speedLimit', e.currentTarget.value)}
          inputMode="decimal"
          error={err('speedLimit')}
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
        <Group justify="space-between" wrap="nowrap">
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
          cancel={t('cancel')}
          save={t('save')}
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
