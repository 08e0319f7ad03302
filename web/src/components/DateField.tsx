// A date (or date-and-time) field in the app's language (issue #29): the native date inputs follow the browser's
// language (mm/dd/yyyy in an English Chromium) whatever the app says, so the forms use Mantine's DateInput with
// dayjs in pt-BR, es or en-US, typed as dd/mm/aaaa (hh:mm) or picked in its calendar. The value keeps the native
// inputs' shapes (YYYY-MM-DD, or YYYY-MM-DDTHH:mm in the browser's time) so the forms' rules do not change.
// Only the screens and dialogs that have a date field load this module (and @mantine/dates with it). Text typed that
// is no date (31/02/2020) is said under the field when it loses focus ("Data inválida"): the picker alone put the
// last good value back without a word, and a save then stored no date.
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/es';
import { dateInputPattern, dateInputPlaceholder, parseDateInput } from '@rastro/domain';
import { useMemo, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';

const DAYJS_LOCALE: Record<string, string> = { 'pt-BR': 'pt-br', es: 'es', 'en-US': 'en' };

const VALUE = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}))?$/;

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as the date-and-time value (YYYY-MM-DDTHH:mm, browser time), as a datetime-local input writes it. */
export function toLocalInput(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form's value (YYYY-MM-DD[THH:mm]) as Mantine's (YYYY-MM-DD[ HH:mm:ss]); null when empty or not a date. */
function toPicker(value: string, withTime: boolean): string | null {
  const m = VALUE.exec(value);
  if (!m) return null;
  return withTime ? `${m[1]} ${m[2] ?? '00:00'}:00` : m[1];
}

type Props = Omit<DateInputProps, 'value' | 'onChange' | 'defaultValue' | 'valueFormat' | 'dateParser'> & {
  value: string;
  onChange: (value: string) => void;
  /** a date and a time (the native datetime-local) instead of a date */
  withTime?: boolean;
};

export function DateField({ value, onChange, withTime = false, ...rest }: Props) {
  const { t, i18n } = useTranslation('common');
  const lng = i18n.language;
  const [typedWrong, setTypedWrong] = useState(false);
  const onBlur = (e: FocusEvent<HTMLInputElement>) => {
    const text = e.currentTarget.value.trim();
    setTypedWrong(text !== '' && parseDateInput(text, lng, withTime) === null);
    rest.onBlur?.(e);
  };
  const settings = useMemo(
    () => ({ locale: DAYJS_LOCALE[lng] ?? 'en', firstDayOfWeek: lng === 'es' ? 1 : 0 }) as const,
    [lng],
  );
  const ariaLabels = t('calendar', { returnObjects: true }) as Record<string, string>;
  return (
    <DatesProvider settings={settings}>
      <DateInput
        {...rest}
        onBlur={onBlur}
        error={rest.error ?? (typedWrong ? t('validation.invalidDate') : undefined)}
        withTime={withTime}
        value={toPicker(value, withTime)}
        valueFormat={dateInputPattern(lng, withTime)}
        placeholder={rest.placeholder ?? dateInputPlaceholder(lng, withTime)}
        dateParser={(text) => {
          const typed = parseDateInput(text, lng, withTime);
          return typed === null ? null : toPicker(typed, withTime);
        }}
        ariaLabels={typeof ariaLabels === 'object' ? ariaLabels : undefined}
        onChange={(picked) => {
          setTypedWrong(false);
          if (!picked) return onChange('');
          const [day, time] = picked.split(' ');
          // a day picked in the calendar keeps the time already there
          if (withTime) onChange(`${day}T${(time ?? VALUE.exec(value)?.[2] ?? '00:00').slice(0, 5)}`);
          else onChange(day);
        }}
      />
    </DatesProvider>
  );
}
