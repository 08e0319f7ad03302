// Text of the shared-link countdown (SPEC §9: days over 86400 s, hours over 3600 s, minutes over 60 s, else
// seconds); the unit choice is the domain's rule, the wording is translated here.
import { useTranslation } from 'react-i18next';

export type CountdownUnit = 'days' | 'hours' | 'minutes' | 'seconds';

export function countdownParts(seconds: number): { unit: CountdownUnit; value: number } {
  const s = Math.max(0, Math.floor(seconds));
  if (s > 86400) return { unit: 'days', value: Math.floor(s / 86400) };
  if (s > 3600) return { unit: 'hours', value: Math.floor(s / 3600) };
  if (s > 60) return { unit: 'minutes', value: Math.floor(s / 60) };
  return { unit: 'seconds', value: s };
}

export function useCountdownText(): (seconds: number) => string {
  const { t } = useTranslation('shell');
  return (seconds) => {
    const { unit, value } = countdownParts(seconds);
    return t(`countdown.${unit}`, { count: value });
  };
}
