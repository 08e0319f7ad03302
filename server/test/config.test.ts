import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({ INIT_CWD: '/srv/rastro' });
    expect(c).toMatchObject({
      port: 8082,
      host: '127.0.0.1',
      dataDir: '/srv/rastro/data',
      sqliteFile: '/srv/rastro/data/rastro.db',
      simDevices: 25,
      osmandPort: 5055,
      ns: 'rastro',
      adminEmail: 'admin',
      adminPassword: 'admin',
      edition: 'plus',
      deviceLimit: 0,
      mode: 'embedded',
      osmandSpeed: 'knots',
    });
  });

  it('takes the OsmAnd speed unit and WEB_ROOT', () => {
    expect(loadConfig({ OSMAND_SPEED: 'kmh' }).osmandSpeed).toBe('kmh');
    expect(() => loadConfig({ OSMAND_SPEED: 'furlongs' })).toThrow(/OSMAND_SPEED/);
    expect(loadConfig({ WEB_ROOT: '/srv/web' }).webRoot).toBe('/srv/web');
  });

  it('reads WEATHER_URL here, not in the weather route (one place for the environment)', () => {
    expect(loadConfig({}).weatherUrl).toBeUndefined();
    expect(loadConfig({ WEATHER_URL: 'http://127.0.0.1:9/forecast' }).weatherUrl).toBe(
      'http://127.0.0.1:9/forecast',
    );
    expect(() => loadConfig({ WEATHER_URL: 'not a url' })).toThrow(/WEATHER_URL/);
  });

  it('takes a relative DATA_DIR from where npm was run, not from the workspace folder', () => {
    expect(loadConfig({ DATA_DIR: 'fleet', INIT_CWD: '/home/me/rastro' }).dataDir).toBe(
      '/home/me/rastro/fleet',
    );
    expect(loadConfig({ DATA_DIR: '/var/lib/rastro', INIT_CWD: '/home/me' }).dataDir).toBe('/var/lib/rastro');
  });

  it('switches to gateway mode with TRACCAR_URL and rejects bad values with the variable named', () => {
    expect(loadConfig({ TRACCAR_URL: 'http://traccar.local:8082' }).mode).toBe('gateway');
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ RASTRO_EDITION: 'gold' })).toThrow(/RASTRO_EDITION/);
  });

  it('reads DATABASE_URL as the PostgreSQL store and refuses an address that is not postgres://', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://rastro@db/rastro' }).databaseUrl).toBe(
      'postgres://rastro@db/rastro',
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/x' }).databaseUrl).toBe('postgresql://db/x');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/x' })).toThrow(/DATABASE_URL: a postgres:\/\//);
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });
});
