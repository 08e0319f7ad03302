// The `maintenances` dialog of the user menu (SPEC §2, bit 96; §3 Maintenance): list and form (name, type
// totalDistance or hours, start, cycle). Traccar keeps metres for totalDistance and milliseconds for hours
// (CONTRACT §3); the form shows the user's distance unit and hours and converts. Each row shows the next due value
// (start + cycle; the event fires whenever the value crosses start + k·cycle). Deletes need an id > 0 (SPEC §5).
// The list, form frame and delete are the catalogue scaffold (components/Catalogue*).
import { NumberInput, Select, Text, TextInput } from '@mantine/core';
import {
  MAINTENANCE_TYPES,
  UNIT_LABELS,
  emptyMaintenanceForm,
  maintenanceFromDisplay,
  maintenanceNextDue,
  maintenanceToDisplay,
  maintenanceToForm,
  maintenanceUnit,
  parseMaintenanceForm,
  readDecimal,
  type DistanceUnit,
  type Maintenance,
  type MaintenanceFormValues,
} from '@rastro/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { choiceBinder, fieldBinder } from '../../components/boundField.ts';
import { CatalogueDialog, CatalogueForm } from '../../components/CatalogueDialog.tsx';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogue, type Catalogue } from '../../components/useCatalogue.ts';
import { useUnits } from '../../i18n/useUnits.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';

function separators(locale: string): { decimal: string; thousand: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    thousand: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

/** Stored values (metres, milliseconds) shown in the user's unit, with the unit's label. */
function useMaintenanceUnits() {
  const { t, i18n } = useTranslation('maintenances');
  const locale = i18n.language;
  const distanceUnit: DistanceUnit = useUnits().distanceUnit;
  const nf = useMemo(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }), [locale]);
  const unitLabel = (type: string) => {
    const u = maintenanceUnit(type, distanceUnit);
    return u === 'h' ? t('hoursUnit') : u ? UNIT_LABELS[u] : '';
  };
  const show = (type: string, stored: number) =>
    `${nf.format(maintenanceToDisplay(type, stored, distanceUnit))} ${unitLabel(type)}`.trim();
  return { distanceUnit, unitLabel, show, locale };
}

type MaintenanceCatalogue = Catalogue<'maintenance', MaintenanceFormValues>;

function MaintenanceFields({ c, form }: { c: MaintenanceCatalogue; form: MaintenanceFormValues }) {
  const { t, err } = c;
  const bound = { t, values: form, set: (k: string, v: string) => c.edit({ [k]: v }), err };
  const field = fieldBinder(bound, 'maintenance');
  const { distanceUnit, unitLabel, show, locale } = useMaintenanceUnits();
  const sep = useMemo(() => separators(locale), [locale]);
  const types: string[] = [...MAINTENANCE_TYPES];
  if (!types.includes(form.type)) types.push(form.type);
  const start = readDecimal(form.start) ?? 0;
  const period = readDecimal(form.period);
  const preview =
    period !== null && period > 0
      ? show(
          form.type,
          maintenanceNextDue(
            maintenanceFromDisplay(form.type, start, distanceUnit),
            maintenanceFromDisplay(form.type, period, distanceUnit),
          ),
        )
      : null;
  const numberField = (key: 'start' | 'period') => (
    <NumberInput
      label={t(`fields.${key}`)}
      required={key === 'period'}
      min={0}
      decimalSeparator={sep.decimal}
      thousandSeparator={sep.thousand}
      decimalScale={3}
      hideControls
      rightSection={
        <Text size="xs" c="dimmed">
          {unitLabel(form.type)}
        </Text>
      }
      rightSectionWidth={48}
      value={form[key] === '' ? '' : Number(form[key])}
      error={err(key)}
      onChange={(v) => c.edit({ [key]: v === '' ? '' : String(v) })}
      data-testid={`maintenance-${key}`}
    />
  );
  return (
    <>
      <TextInput {...field('name')} required />
      <Select
        {...choiceBinder(bound, 'maintenance')('type')}
        data={types.map((v) => ({ value: v, label: t(`types.${v}`, { defaultValue: v }) }))}
        allowDeselect={false}
      />
      {numberField('start')}
      {numberField('period')}
      {preview && (
        <Text size="sm" c="blue" data-testid="maintenance-next">
          {t('nextDue', { value: preview })}
        </Text>
      )}
    </>
  );
}

export function MaintenancesDialog({ onClose }: DialogComponentProps) {
  const { distanceUnit, show } = useMaintenanceUnits();
  const c = useCatalogue<'maintenance', MaintenanceFormValues>({
    resource: 'maintenance',
    ns: 'maintenances',
    area: 'maintenance',
    parse: (form) => parseMaintenanceForm(form, distanceUnit),
  });
  const { t } = c;
  const typeLabel = (type: string) => t(`types.${type}`, { defaultValue: type });
  const columns: DataColumn<Maintenance>[] = [
    { key: 'name', header: t('fields.name'), cell: (m) => m.name, sortBy: (m) => m.name },
    {
      key: 'type',
      header: t('fields.type'),
      cell: (m) => typeLabel(m.type),
      sortBy: (m) => typeLabel(m.type),
    },
    { key: 'start', header: t('fields.start'), cell: (m) => show(m.type, m.start) },
    {
      key: 'period',
      header: t('fields.period'),
      cell: (m) => show(m.type, m.period),
      testId: 'maintenance-period-cell',
    },
    {
      key: 'next',
      header: t('fields.next'),
      cell: (m) => show(m.type, maintenanceNextDue(m.start, m.period)),
    },
  ];

  return (
    <CatalogueDialog
      c={c}
      menu="maintenance"
      onClose={onClose}
      size={[760, 520]}
      testId="maintenances-dialog"
    >
      {c.editing ? (
        <CatalogueForm c={c} prefix="maintenance" testId="maintenance-form">
          <MaintenanceFields c={c} form={c.editing} />
        </CatalogueForm>
      ) : (
        <CatalogueList
          c={c}
          prefix="maintenance"
          plural="maintenances"
          columns={columns}
          intro={t('description')}
          newForm={emptyMaintenanceForm}
          toForm={(m) => maintenanceToForm(m, distanceUnit)}
        />
      )}
    </CatalogueDialog>
  );
}
