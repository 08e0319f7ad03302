// Text of the shared-link countdown. The unit choice (SPEC §9: days over 86400 s, hours over 3600 s, minutes
// over 60 s, else seconds) is countdown() in @rastro/domain; the wording is translated here.
import { countdown } from '@rastro/domain';
import { useTranslation } from 'react-i18next';

export function useCountdownText(): (seconds: number) => string {
  const { t } = useTranslation('shell');
  return (seconds) => {
    const c = countdown(seconds);
    return c.expired ? t('expired.message') : t(`countdown.${c.unit}`, { count: c.value });
  };
}
