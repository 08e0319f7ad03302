// The create/edit form of a scheduled report: type, description, calendar (when it runs: at the end of each of its
// periods, for that period), devices and groups, recipients (managers pick among the users they manage; a user
// receives its own) and the format (Excel). Checked by the domain's parseScheduledReportForm.
import { Alert, Button, Group, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  SCHEDULED_REPORT_KINDS,
  isManager,
  linkLabel,
  parseScheduledReportForm,
  type ScheduledReportFormValues,
  type ScheduledReportLinks,
  type ScheduledReport,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceList } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';

export interface ScheduledFormProps {
  initial: ScheduledReportFormValues;
  saving: boolean;
  onCancel(): void;
  onSave(report: ScheduledReport, links: ScheduledReportLinks): void;
}

const options = (items: readonly { id: number; name?: unknown; description?: unknown; email?: unknown }[]) =>
  items.map((o) => ({ value: String(o.id), label: linkLabel(o) }));

/** The lists open below their field, never over the fields above it (the form's first fields stay reachable). */
const BELOW = { withinPortal: true, position: 'bottom' as const, middlewares: { flip: false, shift: false } };

const numbers = (values: string[]) => values.map(Number).filter((n) => Number.isInteger(n) && n > 0);

export function ScheduledReportForm({ initial, saving, onCancel, onSave }: ScheduledFormProps) {
  const { t } = useTranslation('reports');
  const user = useSession((s) => s.user);
  const manager = isManager(user);
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const calendars = useResourceList('calendars');
  const devices = useResourceList('devices');
  const groups = useResourceList('groups');
  const users = useResourceList('users', undefined, { enabled: manager });

  const typeOptions = useMemo(() => {
    const kinds: string[] = [...SCHEDULED_REPORT_KINDS];
    if (!kinds.includes(v.type)) kinds.push(v.type);
    return kinds.map((k) => ({ value: k, label: t(`scheduled.types.${k}`, { defaultValue: k }) }));
  }, [v.type, t]);
  const calendarOptions = useMemo(() => options(calendars.data ?? []), [calendars.data]);
  const deviceOptions = useMemo(() => options(devices.data ?? []), [devices.data]);
  const groupOptions = useMemo(() => options(groups.data ?? []), [groups.data]);
  const userOptions = useMemo(
    () => (users.data ?? []).map((u) => ({ value: String(u.id), label: u.name || u.email })),
    [users.data],
  );
  const err = (field: string) => (errors[field] ? t(`scheduled.${errors[field]}`) : undefined);

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
        label={t('scheduled.fields.type')}
        data={typeOptions}
        value={v.type}
        allowDeselect={false}
        error={err('type')}
        onChange={(type) => type && setV({ ...v, type })}
        comboboxProps={{ withinPortal: true }}
        data-testid="scheduled-type"
      />
      <TextInput
        label={t('scheduled.fields.description')}
        value={v.description}
        error={err('description')}
        onChange={(e) => setV({ ...v, description: e.currentTarget.value })}
        data-testid="scheduled-description"
      />
      <Select
        label={t('scheduled.fields.calendar')}
        description={t('scheduled.calendarHint')}
        required
        data={calendarOptions}
        value={v.calendarId > 0 ? String(v.calendarId) : null}
        error={err('calendarId')}
        onChange={(id) => setV({ ...v, calendarId: id ? Number(id) : 0 })}
        comboboxProps={{ withinPortal: true }}
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
          <MultiSelect
            label={t('scheduled.fields.devices')}
            data={deviceOptions}
            value={v.deviceIds.map(String)}
            error={err('deviceIds')}
            onChange={(ids) => setV({ ...v, deviceIds: numbers(ids) })}
            searchable
            clearable
            maxDropdownHeight={220}
            comboboxProps={BELOW}
            data-testid="scheduled-devices"
          />
          <MultiSelect
            label={t('scheduled.fields.groups')}
            data={groupOptions}
            value={v.groupIds.map(String)}
            onChange={(ids) => setV({ ...v, groupIds: numbers(ids) })}
            searchable
            clearable
            maxDropdownHeight={220}
            comboboxProps={BELOW}
            data-testid="scheduled-groups"
          />
        </>
      )}
      {manager ? (
        <MultiSelect
          label={t('scheduled.fields.recipients')}
          description={t('scheduled.recipientsHint')}
          data={userOptions}
          value={v.userIds.map(String)}
          onChange={(ids) => setV({ ...v, userIds: numbers(ids) })}
          searchable
          clearable
          maxDropdownHeight={220}
          comboboxProps={BELOW}
          data-testid="scheduled-recipients"
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('scheduled.ownRecipient', { email: user?.email ?? '' })}
        </Text>
      )}
      <Text size="sm" data-testid="scheduled-format">
        {t('scheduled.format')}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('scheduled.cancel')}
        </Button>
        <Button onClick={submit} loading={saving} data-testid="scheduled-save">
          {t('scheduled.save')}
        </Button>
      </Group>
    </Stack>
  );
}
