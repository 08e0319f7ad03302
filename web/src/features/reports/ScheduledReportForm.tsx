// The create/edit form of a scheduled report: type, description, calendar (when it runs: at the end of each of its
// periods, for that period), devices and groups, recipients (managers pick among the users they manage; a user
// receives its own) and the format (Excel). Checked by the domain's parseScheduledReportForm.
import { Alert, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  SCHEDULED_REPORT_KINDS,
  isManager,
  parseScheduledReportForm,
  type ScheduledReportFormValues,
  type ScheduledReportLinks,
  type ScheduledReport,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceList } from '../../api/resources.ts';
import { choiceBinder, fieldBinder } from '../../components/boundField.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useSession } from '../../stores/session.ts';

export interface ScheduledFormProps {
  initial: ScheduledReportFormValues;
  saving: boolean;
  onCancel(): void;
  onSave(report: ScheduledReport, links: ScheduledReportLinks): void;
}

/** The lists open below their field, never over the fields above it (the form's first fields stay reachable). */
const BELOW = { position: 'bottom' as const, middlewares: { flip: false, shift: false } };

const numbers = (values: string[]) => values.map(Number).filter((n) => Number.isInteger(n) && n > 0);

export function ScheduledReportForm({ initial, saving, onCancel, onSave }: ScheduledFormProps) {
  const { t } = useTranslation('reports');
  const user = useSession((s) => s.user);
  const manager = isManager(user);
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const calendars = useResourceList('calendars');
  const users = useResourceList('users', undefined, { enabled: manager });

  // the known kinds, and the edited report's own when it is none of them
  const typeOptions = [...new Set([...SCHEDULED_REPORT_KINDS, v.type])].map((k) => ({
    value: k,
    label: t(`scheduled.types.${k}`, { defaultValue: k }),
  }));
  // a fleet's lists (up to 10,000 devices) are mapped once per answer, not on every keystroke in the form
  const calendarOptions = useResourceOptions('calendars');
  const deviceOptions = useResourceOptions('devices');
  const groupOptions = useResourceOptions('groups');
  const userOptions = useMemo(
    () => (users.data ?? []).map((u) => ({ value: String(u.id), label: u.name || u.email })),
    [users.data],
  );
  const err = (field: string) => (errors[field] ? t(`scheduled.${errors[field]}`) : undefined);

  const set = (k: string, value: string) => setV({ ...v, [k]: value });
  const bound = { t, values: v, set, err };
  const field = fieldBinder(bound, 'scheduled', 'scheduled.fields');

  /** One list of linked objects: its ids in the form, its label and test id. */
  const links = (
    field: keyof ScheduledReportLinks,
    label: string,
    data: { value: string; label: string }[],
    testId: string,
    description?: string,
  ) => (
    <MultiSelect
      label={t(`scheduled.fields.${label}`)}
      description={description}
      data={data}
      value={v[field].map(String)}
      error={err(field)}
      onChange={(ids) => setV({ ...v, [field]: numbers(ids) })}
      searchable
      clearable
      maxDropdownHeight={220}
      comboboxProps={BELOW}
      data-testid={testId}
    />
  );

  const submit = () => {
    const r = parseScheduledReportForm(v);
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    onSave(r.report, r.links);
  };

  return (
    <Stack gap="sm" data-testid="scheduled-form">
      <Select
        {...choiceBinder(bound, 'scheduled', 'scheduled.fields')('type')}
        data={typeOptions}
        allowDeselect={false}
      />
      <TextInput {...field('description')} />
      <Select
        label={t('scheduled.fields.calendar')}
        description={t('scheduled.calendarHint')}
        required
        data={calendarOptions}
        value={v.calendarId > 0 ? String(v.calendarId) : null}
        error={err('calendarId')}
        onChange={(id) => setV({ ...v, calendarId: id ? Number(id) : 0 })}
        searchable
        nothingFoundMessage={t('scheduled.noCalendars')}
        data-testid="scheduled-calendar"
      />
      {calendars.data?.length === 0 && (
        <Alert color="yellow" data-testid="scheduled-no-calendars">
          {t('scheduled.noCalendars')}
        </Alert>
      )}
      {v.type === 'devices' ? (
        <Text size="sm" c="dimmed">
          {t('scheduled.allDevices')}
        </Text>
      ) : (
        <>
          {links('deviceIds', 'devices', deviceOptions, 'scheduled-devices')}
          {links('groupIds', 'groups', groupOptions, 'scheduled-groups')}
        </>
      )}
      {manager ? (
        links('userIds', 'recipients', userOptions, 'scheduled-recipients', t('scheduled.recipientsHint'))
      ) : (
        <Text size="sm" c="dimmed">
          {t('scheduled.ownRecipient', { email: user?.email ?? '' })}
        </Text>
      )}
      <Text size="sm" data-testid="scheduled-format">
        {t('scheduled.format')}
      </Text>
      <SaveCancel
        cancel={t('scheduled.cancel')}
        save={t('scheduled.save')}
        onCancel={onCancel}
        onSave={submit}
        loading={saving}
        saveTestId="scheduled-save"
      />
    </Stack>
  );
}
