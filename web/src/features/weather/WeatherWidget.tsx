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
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../i18n/index.ts';
import { fetchWeather, lookupLocation, weatherIcon, type GeoLocation, type WeatherReading } from './api.ts';
import { Hint } from '../../components/floating.tsx';
import { useNow } from '../../components/useNow.ts';

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

export interface WeatherWidgetProps {
  ipUrl: string;
  geoUrl: string;
  /** Used when the IP lookup gives nothing (server map position). */
  fallback?: { latitude: number; longitude: number } | null;
  compact?: boolean;
}

export function WeatherWidget({ ipUrl, geoUrl, fallback, compact }: WeatherWidgetProps) {
  const { t, i18n } = useTranslation('weather');
  const now = useNow(WIDGET_REFRESH_MS);
  const [place, setPlace] = useState<GeoLocation | null>(null);
  const [reading, setReading] = useState<WeatherReading | null>(null);

  useEffect(() => {
    let cancelled = false;
    lookupLocation(ipUrl, geoUrl)
      .catch((err) => {
        console.warn('IP geolocation failed', err);
        return null;
      })
      .then((geo) => {
        if (cancelled) return;
        const fb = fallback && (fallback.latitude || fallback.longitude) ? { ...fallback, city: '' } : null;
        setPlace(geo ?? fb);
      });
    return () => {
      cancelled = true;
    };
  }, [ipUrl, geoUrl, fallback]);

  useEffect(() => {
    if (!place) return;
    let cancelled = false;
    const load = () =>
      fetchWeather(place.latitude, place.longitude, place.city)
        .then((r) => !cancelled && setReading(r))
        .catch((err) => console.warn('weather failed', err));
    void load();
    const id = setInterval(load, WIDGET_REFRESH_MS);
    return () => {
      cancelled = true;
      clearInterval(id);
    };
  }, [place]);

  const time = new Intl.DateTimeFormat(intlLocale(), { hour: '2-digit', minute: '2-digit' }).format(now);
  const Icon = reading ? icons[weatherIcon(reading.weatherCode)] : null;
  const temp =
    reading && Number.isFinite(reading.temperature)
      ? formatNumber(reading.temperature, intlLocale(), 0)
      : null;
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
