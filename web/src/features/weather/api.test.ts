import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json } from '../../components/testing.tsx';
import { fetchWeather, lookupLocation, parseGeo, weatherIcon } from './api.ts';

afterEach(() => vi.unstubAllGlobals());

describe('weather chain (SPEC §7)', () => {
  it('IP lookup, then IP geolocation with {ip}, then /api/weather', async () => {
    const f = fakeFetch((url) => {
      if (url.startsWith('https://ip.test')) return json({ ip: '203.0.113.9' });
      if (url.startsWith('https://geo.test'))
        return json({ latitude: -23.5, longitude: -46.6, city: 'São Paulo' });
      return json({ current_weather: { temperature: 21.4, wind_speed: 7, weathercode: 61 } });
    });
    vi.stubGlobal('fetch', f.fn);
    const geo = await lookupLocation('https://ip.test/?format=json', 'https://geo.test/{ip}/json/');
    expect(geo).toEqual({ latitude: -23.5, longitude: -46.6, city: 'São Paulo' });
    const w = await fetchWeather(geo!.latitude, geo!.longitude, geo!.city);
    expect(w).toEqual({ city: 'São Paulo', temperature: 21.4, windSpeed: 7, weatherCode: 61 });
    expect(f.calls.map((c) => c.url)).toEqual([
      'https://ip.test/?format=json',
      'https://geo.test/203.0.113.9/json/',
      '/api/weather?lat=-23.5&lon=-46.6',
    ]);
    // third-party calls carry no cookies
    expect(f.calls[0].init.credentials).toBe('omit');
    expect(f.calls[2].init.credentials).toBe('include');
  });

  it('reads the usual geolocation shapes and rejects nonsense', () => {
    expect(parseGeo({ lat: '10', lon: '20', city: 'X' })).toEqual({ latitude: 10, longitude: 20, city: 'X' });
    expect(parseGeo({ loc: '1.5,2.5' })).toEqual({ latitude: 1.5, longitude: 2.5, city: '' });
    expect(parseGeo({ latitude: 200, longitude: 0 })).toBeNull();
    expect(parseGeo('x')).toBeNull();
  });

  it('maps WMO weather codes to icons', () => {
    expect([0, 2, 3, 45, 53, 63, 81, 73, 95].map(weatherIcon)).toEqual([
      'clear',
      'partly',
      'cloudy',
      'fog',
      'drizzle',
      'rain',
      'rain',
      'snow',
      'storm',
    ]);
  });
});
