// The `calendars` dialog of the user menu (SPEC §2, bit 88; §3 Calendar): list, and a form that builds one or more
// schedules (start, end, repeat daily/weekly/monthly/yearly, expiry never / after a count / until a date) into
// the base64 iCalendar of Calendar.data (CONTRACT §3), parsed back when editing, with a preview sentence per
// schedule. Times are wall-clock times in the browser's zone (DTSTART;TZID=…).
import {
  ActionIcon,
  Alert,
  Button,
  Chip,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  EXPIRY_KINDS,
  REPEAT_FREQUENCIES,
  WEEKDAY_CODES,
  calendarDataToSchedules,
  can,
  canSeeMenu,
  emptySchedule,
  isReadonly,
  schedulesToCalendarData,
  validateSchedule,
  type Calendar,
  type CalendarSchedule,
  type ExpiryKind,
  type RepeatFrequency,
  type WeekdayCode,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InlineDeleteConfirm } from '../../components/InlineDeleteConfirm.tsx';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { HttpError } from '../../api/http.ts';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { scheduleText } from './preview.ts';
import { DateField } from '../../components/DateField.tsx';

interface FormState {
  id: number;
  name: string;
  schedules: CalendarSchedule[];
  attributes: Calendar['attributes'];
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function CalendarsDialog({ onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('calendars');
  const locale = i18n.language;
  const list = useResourceList('calendars');
  const save = useSaveResource('calendars');
  const remove = useDeleteResource('calendars');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const ctx = { user, server, isPlus, ns };
  const allowed = canSeeMenu(ctx, 'calendars');
  const readonly = isReadonly(user, server);
  const mayCreate = !readonly && can(ctx, 'calendars', 'create');
  const mayEdit = !readonly && can(ctx, 'calendars', 'edit');
  const mayDelete = !readonly && can(ctx, 'calendars', 'delete');
  const tz = useMemo(browserZone, []);
  const [editing, setEditing] = useState<FormState | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [deleting, setDeleting] = useState<Calendar | null>(null);

  const summaries = useMemo(
    () =>
      new Map(
        (list.data ?? []).map((c) => {
          const s = calendarDataToSchedules(c.data, tz).schedules;
          return [c.id, s.map((x) => scheduleText(x, t, locale))];
        }),
      ),
    [list.data, tz, t, locale],
  );

  const openNew = () => {
    setNameError(null);
    setShowErrors(false);
    setEditing({ id: 0, name: '', schedules: [emptySchedule()], attributes: {} });
  };
  const openEdit = (c: Calendar) => {
    const parsed = calendarDataToSchedules(c.data, tz).schedules;
    setNameError(null);
    setShowErrors(false);
    setEditing({
      id: c.id,
      name: c.name,
      schedules: parsed.length ? parsed : [emptySchedule()],
      attributes: c.attributes ?? {},
    });
  };

  const setSchedule = (i: number, patch: Partial<CalendarSchedule>) =>
    editing &&
    setEditing({
      ...editing,
      schedules: editing.schedules.map((s, j) => (j === i ? { ...s, ...patch } : s)),
    });

  const submit = async () => {
    if (!editing) return;
    const name = editing.name.trim();
    const invalid = editing.schedules.some((s) => Object.keys(validateSchedule(s)).length > 0);
    setNameError(name ? null : 'errors.nameRequired');
    setShowErrors(true);
    if (!name || invalid || editing.schedules.length === 0) return;
    const data = schedulesToCalendarData(editing.schedules, { tz, name });
    try {
      await save.mutateAsync({ id: editing.id, name, data, attributes: editing.attributes });
      notifications.show({ color: 'green', message: t('saved') });
      setEditing(null);
    } catch (err) {
      console.warn('calendar not saved', err);
      const text = err instanceof HttpError && err.status === 400 && err.text ? `: ${err.text}` : '';
      notifications.show({ color: 'red', message: `${t('saveError')}${text}` });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn('calendar not deleted', err);
      const text = err instanceof HttpError && err.text ? `: ${err.text}` : '';
      notifications.show({ color: 'red', message: `${t('deleteError')}${text}` });
    }
    setDeleting(null);
  };

  const dayLabel = (code: WeekdayCode) =>
    new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2026, 10, 22 + WEEKDAY_CODES.indexOf(code))),
    );

  const title = editing ? (editing.id > 0 ? t('editTitle') : t('addTitle')) : t('title');

  return (
    <Modal opened onClose={onClose} size={editing ? 720 : 760} title={title} data-testid="calendars-dialog">
      {!allowed ? (
        <Alert color="red">{t('denied')}</Alert>
      ) : editing ? (
        <Stack gap="sm" data-testid="calendar-form">
          <TextInput
            label={t('fields.name')}
            required
            value={editing.name}
            error={nameError ? t(nameError) : undefined}
            onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })}
            data-testid="calendar-name"
          />
          <Text size="xs" c="dimmed">
            {t('zoneHint', { zone: tz })}
          </Text>
          {editing.schedules.map((s, i) => {
            const errs = showErrors ? validateSchedule(s) : {};
            const e = (k: keyof CalendarSchedule) => (errs[k] ? t(`errors.${errs[k]}`) : undefined);
            return (
              <Paper key={i} withBorder p="sm" data-testid="calendar-schedule">
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Text size="sm" fw={500}>
                      {t('schedule', { n: i + 1 })}
                    </Text>
                    {editing.schedules.length > 1 && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('removeSchedule')}
                        onClick={() =>
                          setEditing({ ...editing, schedules: editing.schedules.filter((_, j) => j !== i) })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                  <Group grow align="flex-start">
                    <DateField
                      withTime
                      label={t('fields.start')}
                      value={s.start}
                      error={e('start')}
                      onChange={(value) => setSchedule(i, { start: value })}
                      data-testid="schedule-start"
                    />
                    <DateField
                      withTime
                      label={t('fields.end')}
                      value={s.end}
                      error={e('end')}
                      onChange={(value) => setSchedule(i, { end: value })}
                      data-testid="schedule-end"
                    />
                  </Group>
                  <Group grow align="flex-start">
                    <Select
                      label={t('fields.repeat')}
                      data={REPEAT_FREQUENCIES.map((f) => ({ value: f, label: t(`repeat.${f}`) }))}
                      value={s.repeat}
                      allowDeselect={false}
                      onChange={(v) => setSchedule(i, { repeat: (v ?? 'none') as RepeatFrequency })}
                      comboboxProps={{ withinPortal: true }}
                      data-testid="schedule-repeat"
                    />
                    {s.repeat !== 'none' && (
                      <NumberInput
                        label={t('fields.interval')}
                        min={1}
                        max={999}
                        allowDecimal={false}
                        value={s.interval}
                        error={e('interval')}
                        onChange={(v) =>
                          setSchedule(i, { interval: typeof v === 'number' ? v : Number(v) || 1 })
                        }
                      />
                    )}
                  </Group>
                  {s.repeat === 'weekly' && (
                    <Chip.Group
                      multiple
                      value={s.byDay}
                      onChange={(v) => setSchedule(i, { byDay: v as WeekdayCode[] })}
                    >
                      <Group gap={4} data-testid="schedule-days">
                        {WEEKDAY_CODES.map((c) => (
                          <Chip key={c} value={c} size="xs" data-day={c}>
                            {dayLabel(c)}
                          </Chip>
                        ))}
                      </Group>
                    </Chip.Group>
                  )}
                  {s.repeat !== 'none' && (
                    <Group grow align="flex-start">
                      <Select
                        label={t('fields.expiry')}
                        data={EXPIRY_KINDS.map((k) => ({ value: k, label: t(`expiry.${k}`) }))}
                        value={s.expiry}
                        allowDeselect={false}
                        onChange={(v) => setSchedule(i, { expiry: (v ?? 'never') as ExpiryKind })}
                        comboboxProps={{ withinPortal: true }}
                        data-testid="schedule-expiry"
                      />
                      {s.expiry === 'count' && (
                        <NumberInput
                          label={t('fields.count')}
                          min={1}
                          allowDecimal={false}
                          value={s.count}
                          error={e('count')}
                          onChange={(v) =>
                            setSchedule(i, { count: typeof v === 'number' ? v : Number(v) || 0 })
                          }
                          data-testid="schedule-count"
                        />
                      )}
                      {s.expiry === 'until' && (
                        <DateField
                          label={t('fields.until')}
                          value={s.until}
                          error={e('until')}
                          onChange={(value) => setSchedule(i, { until: value })}
                          data-testid="schedule-until"
                        />
                      )}
                    </Group>
                  )}
                  <Text size="sm" c="blue" data-testid="schedule-preview">
                    {scheduleText(s, t, locale)}
                  </Text>
                </Stack>
              </Paper>
            );
          })}
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            style={{ alignSelf: 'flex-start' }}
            onClick={() => setEditing({ ...editing, schedules: [...editing.schedules, emptySchedule()] })}
            data-testid="schedule-add"
          >
            {t('addSchedule')}
          </Button>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(null)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={save.isPending} data-testid="calendar-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('description')}
            </Text>
            {mayCreate && (
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={openNew}
                data-testid="calendar-add"
              >
                {t('add')}
              </Button>
            )}
          </Group>
          {list.isError && <Alert color="red">{t('loadError')}</Alert>}
          {list.data && list.data.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('empty')}
            </Text>
          )}
          {!!list.data?.length && (
            <Table striped fz="sm" data-testid="calendars-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.name')}</Table.Th>
                  <Table.Th>{t('fields.schedules')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((c) => (
                  <Table.Tr key={c.id} data-testid="calendar-row" data-calendar-id={c.id}>
                    <Table.Td>{c.name}</Table.Td>
                    <Table.Td>
                      {(summaries.get(c.id) ?? []).map((line, i) => (
                        <Text key={i} size="xs">
                          {line}
                        </Text>
                      ))}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {mayEdit && (
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('edit')}
                            onClick={() => openEdit(c)}
                            data-testid="calendar-edit"
                          >
                            <IconEdit size={16} />
                          </ActionIcon>
                        )}
                        {mayDelete && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('delete')}
                            onClick={() => setDeleting(c)}
                            data-testid="calendar-delete"
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {deleting && (
            <InlineDeleteConfirm
              title={t('deleteTitle')}
              question={t('deleteQuestion', { name: deleting.name })}
              cancelLabel={t('cancel')}
              deleteLabel={t('delete')}
              onCancel={() => setDeleting(null)}
              onConfirm={() => void confirmDelete()}
              loading={remove.isPending}
              testId="calendar-delete"
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}
