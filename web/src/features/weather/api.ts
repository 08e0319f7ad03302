// The weather chain of SPEC §7: public IP lookup, then IP geolocation, then GET /api/weather?lat=&lon=.
// Endpoints come from the branding config (geolocation.ipUrl, geolocation.geoUrl with {ip}); third-party calls
// go without credentials through the shared client factory.
import { attrNumber } from '@rastro/domain';
import { api, createClient } from '../../api/http.ts';

export interface GeoLocation {
  latitude: number;
  longitude: number;
  city: string;
}

export interface WeatherReading {
  city: string;
  temperature: number;
  windSpeed: number;
  weatherCode: number;
}

const outside = createClient({ base: '', timeoutMs: 10_000, credentials: 'omit' });

/** Reads the usual field names of IP geolocation services (latitude/longitude, lat/lon, loc "lat,lon"). */
export function parseGeo(data: unknown): GeoLocation | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  let lat = attrNumber(d.latitude ?? d.lat) ?? NaN;
  let lon = attrNumber(d.longitude ?? d.lon ?? d.lng) ?? NaN;
  if ((!Number.isFinite(lat) || !Number.isFinite(lon)) && typeof d.loc === 'string') {
    [lat, lon] = d.loc.split(',').map(Number);
  }
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180)
    return null;
  const city = typeof d.city === 'string' ? d.city : '';
  return { latitude: lat, longitude: lon, city };
}

export async function lookupLocation(ipUrl: string, geoUrl: string): Promise<GeoLocation | null> {
  if (!geoUrl) return null;
  let ip = '';
  if (geoUrl.includes('{ip}')) {
    if (!ipUrl) return null;
    const res = await outside.get<unknown>(ipUrl);
    ip =
      typeof res === 'string' ? res.trim() : String((res as Record<string, unknown> | null)?.ip ?? '').trim();
    if (!/^[0-9a-fA-F:.]+$/.test(ip)) return null;
  }
  return parseGeo(await outside.get<unknown>(geoUrl.replace('{ip}', encodeURIComponent(ip))));
}

interface WeatherAnswer {
  current_weather?: { temperature?: number; wind_speed?: number; windspeed?: number; weathercode?: number };
}

export async function fetchWeather(lat: number, lon: number, city = ''): Promise<WeatherReading> {
  const data = await api.get<WeatherAnswer>('/weather', { lat, lon });
  const c = data?.current_weather ?? {};
  return {
    city,
    temperature: Number(c.temperature),
    windSpeed: Number(c.wind_speed ?? c.windspeed ?? 0),
    weatherCode: Number(c.weathercode ?? 0),
  };
}

/** WMO weather code → icon group. */
export type WeatherIcon = 'clear' | 'partly' | 'cloudy' | 'fog' | 'drizzle' | 'rain' | 'snow' | 'storm';
export function weatherIcon(code: number): WeatherIcon {
  if (code === 0) return 'clear';
  if (code <= 2) return 'partly';
  if (code === 3) return 'cloudy';
  if (code === 45 || code === 48) return 'fog';
  if (code >= 51 && code <= 57) return 'drizzle';
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'rain';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if (code >= 95) return 'storm';
  return 'cloudy';
}
