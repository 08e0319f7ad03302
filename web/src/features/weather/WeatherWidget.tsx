// Header widget: local time and current weather (SPEC §1, §7). Refreshes every 60 s; errors are only logged.
import { Group, Text } from '@mantine/core';
import {
  IconCloud,
  IconCloudFog,
  IconCloudRain,
  IconCloudSnow,
  IconCloudStorm,
  IconDroplet,
  IconSun,
  IconSunHigh,
} from '@tabler/icons-react';
import { formatNumber } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../i18n/index.ts';
import { fetchWeather, lookupLocation, weatherIcon } from './api.ts';
import { Hint } from '../../components/floating.tsx';
import { useNow } from '../../components/useNow.ts';
import { useBrandingState } from '../../branding/index.ts';
import { useSession } from '../../stores/session.ts';

export const WIDGET_REFRESH_MS = 60_000;

const icons = {
  clear: IconSunHigh,
  partly: IconSun,
  cloudy: IconCloud,
  fog: IconCloudFog,
  drizzle: IconDroplet,
  rain: IconCloudRain,
  snow: IconCloudSnow,
  storm: IconCloudStorm,
};

/** `compact`: no city name (a phone's header). */
export function WeatherWidget({ compact }: { compact: boolean }) {
  const { t, i18n } = useTranslation('weather');
  const now = useNow(WIDGET_REFRESH_MS);
  // the lookups of the branding config, asked for once it is read
  const { branding, settled } = useBrandingState();
  const { ipUrl, geoUrl } = branding.geolocation;
  const server = useSession((s) => s.server);
  // the place once (the IP lookup, else the server's map position), then its weather every minute; errors are logged
  const located = useQuery({
    queryKey: ['weather-place', ipUrl, geoUrl],
    queryFn: () =>
      lookupLocation(ipUrl, geoUrl).catch((err) => {
        console.warn('IP geolocation failed', err);
        return null;
      }),
    staleTime: Infinity,
    enabled: settled,
  });
  const fb =
    server && (server.latitude || server.longitude)
      ? { latitude: server.latitude, longitude: server.longitude, city: '' }
      : null;
  const place = located.isSuccess ? (located.data ?? fb) : null;
  const { data: reading } = useQuery({
    queryKey: ['weather', place?.latitude, place?.longitude, place?.city],
    queryFn: () =>
      fetchWeather(place!.latitude, place!.longitude, place!.city).catch((err: unknown) => {
        console.warn('weather failed', err);
        throw err;
      }),
    enabled: !!place,
    refetchInterval: WIDGET_REFRESH_MS,
    retry: false,
  });

  const time = new Intl.DateTimeFormat(intlLocale(), { hour: '2-digit', minute: '2-digit' }).format(now);
  const Icon = reading ? icons[weatherIcon(reading.weatherCode)] : null;
  const temp =
    reading && Number.isFinite(reading.temperature)
      ? formatNumber(reading.temperature, intlLocale(), 0)
      : null;
  if (!settled) return null;
  return (
    <Group gap={6} wrap="nowrap" data-testid="weather-widget" lang={i18n.language}>
      <Text size="sm" fw={600} data-testid="clock">
        {time}
      </Text>
      {reading && Icon && temp !== null && (
        <Hint
          label={t('details', {
            city: reading.city || t('here'),
            wind: formatNumber(reading.windSpeed, intlLocale(), 0),
            condition: t(`codes.${weatherIcon(reading.weatherCode)}`),
          })}
        >
          <Group gap={2} wrap="nowrap" aria-label={t('label')}>
            <Icon size={18} />
            <Text size="sm">{t('temperature', { value: temp })}</Text>
            {!compact && reading.city && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {reading.city}
              </Text>
            )}
          </Group>
        </Hint>
      )}
    </Group>
  );
}
