// The `calendars` dialog of the user menu (SPEC §2, bit 88; §3 Calendar): list, and a form that builds one or more
// schedules (start, end, repeat daily/weekly/monthly/yearly, expiry never / after a count / until a date) into
// the base64 iCalendar of Calendar.data (CONTRACT §3), parsed back when editing, with a preview sentence per
// schedule. Times are wall-clock times in the browser's zone (DTSTART;TZID=…). The list, form frame and delete are
// the catalogue scaffold (components/Catalogue*).
import { Button, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import {
  calendarDataToSchedules,
  emptySchedule,
  schedulesToCalendarData,
  validateSchedule,
  type Calendar,
  type CalendarSchedule,
} from '@rastro/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldBinder } from '../../components/boundField.ts';
import { CatalogueDialog, CatalogueForm } from '../../components/CatalogueDialog.tsx';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogue, type Parsed } from '../../components/useCatalogue.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { scheduleText } from './preview.ts';
import { ScheduleFields } from './ScheduleFields.tsx';

type FormState = Omit<Calendar, 'data'> & { schedules: CalendarSchedule[] };

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function parseCalendarForm(form: FormState, tz: string): Parsed<Calendar> {
  const name = form.name.trim();
  const errors: Record<string, string> = {};
  if (!name) errors.name = 'errors.nameRequired';
  if (!form.schedules.length || form.schedules.some((s) => Object.keys(validateSchedule(s)).length > 0))
    errors.schedules = 'invalid';
  if (Object.keys(errors).length) return { ok: false, errors };
  const data = schedulesToCalendarData(form.schedules, { tz, name });
  return { ok: true, value: { id: form.id, name, data, attributes: form.attributes } };
}

export function CalendarsDialog({ onClose }: DialogComponentProps) {
  const { i18n } = useTranslation('calendars');
  const locale = i18n.language;
  const tz = useMemo(browserZone, []);
  const c = useCatalogue<'calendars', FormState>({
    resource: 'calendars',
    ns: 'calendars',
    area: 'calendars',
    parse: (form) => parseCalendarForm(form, tz),
  });
  const { t, editing } = c;
  const columns: DataColumn<Calendar>[] = [
    { key: 'name', header: t('fields.name'), cell: (cal) => cal.name, sortBy: (cal) => cal.name },
    {
      key: 'schedules',
      header: t('fields.schedules'),
      cell: (cal) =>
        calendarDataToSchedules(cal.data, tz).schedules.map((s, i) => (
          <Text key={i} size="xs">
            {scheduleText(s, t, locale)}
          </Text>
        )),
    },
  ];
  const toForm = (cal: Calendar): FormState => {
    const parsed = calendarDataToSchedules(cal.data, tz).schedules;
    return {
      id: cal.id,
      name: cal.name,
      schedules: parsed.length ? parsed : [emptySchedule()],
      attributes: cal.attributes ?? {},
    };
  };
  const setSchedules = (schedules: CalendarSchedule[]) => c.edit({ schedules });
  const nameField = (values: FormState) =>
    fieldBinder({ t, err: c.err, values, set: (k, v) => c.edit({ [k]: v }) }, 'calendar')('name');

  return (
    <CatalogueDialog c={c} menu="calendars" onClose={onClose} size={[760, 720]} testId="calendars-dialog">
      {editing ? (
        <CatalogueForm c={c} prefix="calendar" testId="calendar-form">
          <TextInput {...nameField(editing)} required />
          <Text size="xs" c="dimmed">
            {t('zoneHint', { zone: tz })}
          </Text>
          {editing.schedules.map((s, i) => (
            <ScheduleFields
              key={i}
              s={s}
              n={i + 1}
              showErrors={Object.keys(c.errors).length > 0}
              onChange={(patch) =>
                setSchedules(editing.schedules.map((x, j) => (j === i ? { ...x, ...patch } : x)))
              }
              onRemove={
                editing.schedules.length > 1
                  ? () => setSchedules(editing.schedules.filter((_, j) => j !== i))
                  : undefined
              }
            />
          ))}
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            style={{ alignSelf: 'flex-start' }}
            onClick={() => setSchedules([...editing.schedules, emptySchedule()])}
            data-testid="schedule-add"
          >
            {t('addSchedule')}
          </Button>
        </CatalogueForm>
      ) : (
        <CatalogueList
          c={c}
          prefix="calendar"
          plural="calendars"
          columns={columns}
          intro={t('description')}
          newForm={() => ({ id: 0, name: '', schedules: [emptySchedule()], attributes: {} })}
          toForm={toForm}
        />
      )}
    </CatalogueDialog>
  );
}
