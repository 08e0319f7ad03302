// How a report's cells are written: the user's units, language, time zone and currency, the server's fuel
// price and consumption, the device names.
import type { ColumnContext, MessageKey } from '@rastro/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTimeFormat } from '../../components/timeZone.ts';
import { intlLocale } from '../../i18n/index.ts';
import { useUnits } from '../../i18n/useUnits.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';

export function useReportContext(): ColumnContext {
  const { t } = useTranslation('reports');
  const devices = useLive((s) => s.devices);
  const server = useSession((s) => s.server);
  const units = useUnits();
  const locale = intlLocale();
  const timeFmt = useTimeFormat(locale);
  return useMemo(() => {
    const fuelPrice = Number(server?.attributes?.fuelPrice ?? 0);
    const l100 = Number(server?.attributes?.litersx100km ?? 0);
    const currency = server?.attributes?.currency;
    return {
      units,
      locale,
      formatTime: (v: string | number) => {
        const ms = typeof v === 'number' ? v : Date.parse(v);
        return Number.isFinite(ms) ? timeFmt.format(ms) : '';
      },
      fuelPrice: Number.isFinite(fuelPrice) ? fuelPrice : 0,
      litersPer100km: Number.isFinite(l100) ? l100 : 0,
      currency: typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined,
      deviceName: (id: number) => devices[id]?.name ?? String(id),
      label: (key: MessageKey) => t(key, { ns: 'common' }),
    };
  }, [units, locale, timeFmt, server, devices, t]);
}
