// GET /api/weather?lat=&lon= : current weather for the header widget (SPEC §7 "Weather").
// The server asks an Open-Meteo-style service (env WEATHER_URL, default https://api.open-meteo.com/v1/forecast)
// through a small adapter, caches answers per ~1 km cell for 10 minutes, and answers
//   { current_weather: { temperature, wind_speed, weathercode, time } }
// Failures of the upstream service answer 502 with a text body; bad coordinates 400. Only signed-in callers get
// an answer (embedded: session cookie, Basic or Bearer; gateway: the upstream Traccar identity), anyone else 401:
// the server is no open relay to the weather service.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { edge, edgeValue } from '../edge.ts';
import { ApiError } from '../errors.ts';
import { requireCaller } from './caller.ts';

export const DEFAULT_WEATHER_URL = 'https://api.open-meteo.com/v1/forecast';
export const WEATHER_CACHE_MS = 10 * 60_000;
const UPSTREAM_TIMEOUT_MS = 10_000;

export interface CurrentWeather {
  temperature: number;
  wind_speed: number;
  weathercode: number;
  time: string | null;
}

export interface WeatherAdapter {
  current(lat: number, lon: number): Promise<CurrentWeather>;
}

const upstreamSchema = z.object({
  current_weather: z.object({
    temperature: z.number(),
    windspeed: z.number().optional(),
    wind_speed: z.number().optional(),
    weathercode: z.number(),
    time: z.string().optional(),
  }),
});

/** Open-Meteo's forecast API (`current_weather=true`) over the platform's fetch. */
export function openMeteoAdapter(baseUrl: string, fetchImpl: typeof fetch = fetch): WeatherAdapter {
  return {
    async current(lat, lon) {
      const url = new URL(baseUrl);
      url.searchParams.set('latitude', String(lat));
      url.searchParams.set('longitude', String(lon));
      url.searchParams.set('current_weather', 'true');
      const res = await fetchImpl(url, { signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`weather service answered ${res.status}`);
      const body = upstreamSchema.parse(await res.json());
      const c = body.current_weather;
      return {
        temperature: c.temperature,
        wind_speed: c.wind_speed ?? c.windspeed ?? 0,
        weathercode: c.weathercode,
        time: c.time ?? null,
      };
    },
  };
}

const coord = (min: number, max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .transform(Number)
    .pipe(
      z
        .number({ error: 'must be a number' })
        .min(min, `must be between ${min} and ${max}`)
        .max(max, `must be between ${min} and ${max}`),
    );

export const weatherQuerySchema = z.object({ lat: coord(-90, 90), lon: coord(-180, 180) });

/** The query as the edge parses it: a problem reads `<key> <problem>` (`lat must be between -90 and 90`). */
const weatherQuery = z.record(z.string(), z.unknown()).transform((q, c) => {
  const r = weatherQuerySchema.safeParse(q);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  c.addIssue({ code: 'custom', message: `${issue.path.join('.') || 'query'} ${issue.message}` });
  return z.NEVER;
});

export interface WeatherOptions {
  adapter?: WeatherAdapter;
  now?: () => number;
}

export async function registerWeather(
  app: FastifyInstance,
  ctx: AppContext,
  opts: WeatherOptions = {},
): Promise<void> {
  const adapter = opts.adapter ?? openMeteoAdapter(ctx.config.weatherUrl ?? DEFAULT_WEATHER_URL);
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { at: number; value: CurrentWeather }>();

  app.get('/api/weather', edge({ query: weatherQuery, need: 'signedIn' }), async (req) => {
    await requireCaller(ctx, req);
    const { lat, lon } = edgeValue(weatherQuery, req.query);
    const key = `${lat.toFixed(2)},${lon.toFixed(2)}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < WEATHER_CACHE_MS) return { current_weather: hit.value };
    try {
      const value = await adapter.current(Number(lat.toFixed(2)), Number(lon.toFixed(2)));
      if (cache.size > 5000) cache.clear();
      cache.set(key, { at: now(), value });
      return { current_weather: value };
    } catch (err) {
      ctx.log.warn({ err }, 'weather service failed');
      throw new ApiError(502, 'Weather service unavailable', 'WebApplicationException');
    }
  });
}
