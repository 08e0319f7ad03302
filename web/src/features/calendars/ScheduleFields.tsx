// One schedule of the calendar form: start and end, repeat (daily/weekly/monthly/yearly every n), weekdays, expiry
// (never / after a count / until a date) and the preview sentence. Its errors show once the form was submitted.
import { ActionIcon, Chip, Group, NumberInput, Paper, Select, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import {
  EXPIRY_KINDS,
  REPEAT_FREQUENCIES,
  WEEKDAY_CODES,
  validateSchedule,
  type CalendarSchedule,
  type WeekdayCode,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { choiceBinder, fieldBinder } from '../../components/boundField.ts';
import { DateField } from '../../components/DateField.tsx';
import { scheduleText, weekdayName } from './preview.ts';

const toNumber = (v: string | number, fallback: number) =>
  typeof v === 'number' ? v : Number(v) || fallback;

export function ScheduleFields({
  s,
  n,
  showErrors,
  onChange,
  onRemove,
}: {
  s: CalendarSchedule;
  n: number;
  showErrors: boolean;
  onChange(patch: Partial<CalendarSchedule>): void;
  onRemove?(): void;
}) {
  const { t, i18n } = useTranslation('calendars');
  const locale = i18n.language;
  const errs = showErrors ? validateSchedule(s) : {};
  const e = (k: string) => {
    const key = errs[k as keyof CalendarSchedule];
    return key ? t(`errors.${key}`) : undefined;
  };
  const bound = { t, values: s, set: (k: string, value: string) => onChange({ [k]: value }), err: e };
  const field = fieldBinder(bound, 'schedule');
  const choice = choiceBinder(bound, 'schedule');
  return (
    <Paper withBorder p="sm" data-testid="calendar-schedule">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {t('schedule', { n })}
          </Text>
          {onRemove && (
            <ActionIcon variant="subtle" color="red" aria-label={t('removeSchedule')} onClick={onRemove}>
              <IconTrash size={16} />
            </ActionIcon>
          )}
        </Group>
        <Group grow align="flex-start">
          {(['start', 'end'] as const).map((k) => (
            <DateField key={k} withTime {...field(k)} onChange={(value) => onChange({ [k]: value })} />
          ))}
        </Group>
        <Group grow align="flex-start">
          <Select
            {...choice('repeat')}
            data={REPEAT_FREQUENCIES.map((f) => ({ value: f, label: t(`repeat.${f}`) }))}
            allowDeselect={false}
          />
          {s.repeat !== 'none' && (
            <NumberInput
              label={t('fields.interval')}
              min={1}
              max={999}
              allowDecimal={false}
              value={s.interval}
              error={e('interval')}
              onChange={(v) => onChange({ interval: toNumber(v, 1) })}
            />
          )}
        </Group>
        {s.repeat === 'weekly' && (
          <Chip.Group multiple value={s.byDay} onChange={(v) => onChange({ byDay: v as WeekdayCode[] })}>
            <Group gap={4} data-testid="schedule-days">
              {WEEKDAY_CODES.map((c) => (
                <Chip key={c} value={c} size="xs" data-day={c}>
                  {weekdayName(locale, WEEKDAY_CODES.indexOf(c), 'short')}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
        {s.repeat !== 'none' && (
          <Group grow align="flex-start">
            <Select
              {...choice('expiry')}
              data={EXPIRY_KINDS.map((k) => ({ value: k, label: t(`expiry.${k}`) }))}
              allowDeselect={false}
            />
            {s.expiry === 'count' && (
              <NumberInput
                label={t('fields.count')}
                min={1}
                allowDecimal={false}
                value={s.count}
                error={e('count')}
                onChange={(v) => onChange({ count: toNumber(v, 0) })}
                data-testid="schedule-count"
              />
            )}
            {s.expiry === 'until' && (
              <DateField {...field('until')} onChange={(until) => onChange({ until })} />
            )}
          </Group>
        )}
        <Text size="sm" c="blue" data-testid="schedule-preview">
          {scheduleText(s, t, locale)}
        </Text>
      </Stack>
    </Paper>
  );
}
