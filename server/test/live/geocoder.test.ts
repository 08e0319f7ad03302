// Addresses through a Nominatim-compatible reverse geocoder (issue #11), against a local fake provider.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../src/live/geocoder/client.ts';
import { getGeocoder } from '../../src/live/geocoder/index.ts';
import { GeocoderService } from '../../src/live/geocoder/service.ts';
import {
  api,
  createDevice,
  expectStatus,
  ingestPosition,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { first } from '../support/testSql.ts';

interface Seen {
  lat: string;
  lon: string;
  lang: string | null;
  key: string | null;
  agent: string | undefined;
}

/** A fake Nominatim: 0,0 is the sea, latitude 66 fails with 500, anything else is "Rua N" of São Paulo. */
function fakeNominatim(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const lat = u.searchParams.get('lat') ?? '';
    const lon = u.searchParams.get('lon') ?? '';
    seen.push({
      lat,
      lon,
      lang: u.searchParams.get('accept-language'),
      key: u.searchParams.get('key'),
      agent: req.headers['user-agent'],
    });
    if (u.pathname !== '/reverse') return void res.writeHead(404).end();
    if (Number(lat) === 66) return void res.writeHead(500).end('boom');
    res.setHeader('content-type', 'application/json');
    if (Number(lat) === 0 && Number(lon) === 0)
      return void res.end(JSON.stringify({ error: 'Unable to geocode' }));
    res.end(
      JSON.stringify({
        display_name: 'long display name',
        address: {
          road: `Rua ${Math.round(Math.abs(Number(lat)) * 10)}`,
          house_number: '10',
          suburb: 'Centro',
          city: 'São Paulo',
          state_code: 'SP',
        },
      }),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

describe('formatAddress', () => {
  it('street and number, district, city - state; else the display name', () => {
    expect(
      formatAddress({
        address: {
          road: 'Av. Paulista',
          house_number: '1000',
          suburb: 'Bela Vista',
          city: 'São Paulo',
          state: 'SP',
        },
      }),
    ).toBe('Av. Paulista, 1000, Bela Vista, São Paulo - SP');
    expect(formatAddress({ display_name: ' Somewhere ' })).toBe('Somewhere');
    expect(formatAddress({})).toBeNull();
  });
});

describe('GeocoderService', () => {
  it('caches by coordinates (~11 m), paces requests and does not cache failures', async () => {
    let clock = 0;
    const waits: number[] = [];
    const calls: Array<[number, number]> = [];
    let fail = false;
    const service = new GeocoderService(
      {
        async reverse(lat, lon) {
          calls.push([lat, lon]);
          if (fail) throw new Error('down');
          return `addr ${lat}`;
        },
      },
      {
        minIntervalMs: 1000,
        language: () => 'pt-BR',
        now: () => clock,
        sleep: async (ms) => {
          waits.push(ms);
          clock += ms;
        },
      },
    );
    expect(await service.reverse(-23.5, -46.6)).toBe('addr -23.5');
    expect(await service.reverse(-23.50001, -46.60001)).toBe('addr -23.5'); // same 4-decimal cell
    expect(calls).toHaveLength(1);
    clock += 200;
    expect(await service.reverse(-23.6, -46.6)).toBe('addr -23.6');
    expect(waits).toEqual([800]); // one second between provider calls
    fail = true;
    expect(await service.reverse(-23.7, -46.6)).toBeNull();
    fail = false;
    expect(await service.reverse(-23.7, -46.6)).toBe('addr -23.7'); // the failure was not cached
    expect(service.stats).toMatchObject({ requests: 4, failures: 1 });
    const rows = [
      { address: null as string | null, latitude: -23.5, longitude: -46.6 },
      { address: null as string | null, latitude: -24, longitude: -46.6 },
    ];
    service.fill(rows, [{ address: 'address', lat: 'latitude', lon: 'longitude' }]);
    expect(rows.map((r) => r.address)).toEqual(['addr -23.5', null]); // a miss is looked up in the background
    await service.idle();
    expect(service.cached(-24, -46.6)).toBe('addr -24');
  });
});

describe('embedded server with GEOCODER_URL', () => {
  let fake: Awaited<ReturnType<typeof fakeNominatim>>;
  let t: TestApp;
  beforeAll(async () => {
    fake = await fakeNominatim();
    t = await makeTestApp({
      geocoder: { url: fake.url, key: 'k-123', minIntervalMs: 0, timeoutMs: 2000, onIngest: true },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => fake.server.close(r));
  });

  it('GET /api/server says geocoderEnabled and /api/server/geocode answers the address as text', async () => {
    const server = expectStatus<{ geocoderEnabled: boolean }>(
      await api(t.app, null, 'GET', '/api/server'),
      200,
    );
    expect(server.geocoderEnabled).toBe(true);
    const res = await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=-23.55&longitude=-46.63');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('Rua 236, 10, Centro, São Paulo - SP');
    const last = fake.seen[fake.seen.length - 1];
    expect(last).toMatchObject({ lat: '-23.55', lon: '-46.63', lang: 'pt-BR', key: 'k-123' });
    expect(last.agent).toMatch(/^Rastro\//);
  });

  it('no address (sea) or a failing provider gives 204, never a 500; bad coordinates 400; login required', async () => {
    expect((await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=0&longitude=0')).statusCode).toBe(
      204,
    );
    expect((await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=66&longitude=1')).statusCode).toBe(
      204,
    );
    expect((await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=91&longitude=1')).statusCode).toBe(
      400,
    );
    expect((await api(t.app, null, 'GET', '/api/server/geocode?latitude=1&longitude=1')).statusCode).toBe(
      401,
    );
  });

  it("a device's newest position gets its address, stored with the position", async () => {
    const d = await createDevice(t);
    const p = await ingestPosition(t, {
      uniqueId: d.uniqueId,
      fixTime: new Date(),
      latitude: -23.61,
      longitude: -46.7,
    });
    // the live core hands its newest positions to listeners at the end of its processing tick
    const address = async () =>
      (
        (await first(t.ctx.store.sql, 'positions', { id: p.id }, { columns: ['address'] })) as {
          address: string | null;
        }
      ).address;
    for (let i = 0; i < 200 && !(await address()); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await address()).toBe('Rua 236, 10, Centro, São Paulo - SP');
    const row = { address: await address() };
    const latest = expectStatus<Array<{ id: number; address: string | null }>>(
      await api(t.app, t.admin, 'GET', `/api/positions?deviceId=${d.id}`),
      200,
    );
    expect(latest[0].address).toBe(row.address);
  });
});

describe('without GEOCODER_URL', () => {
  it('nothing is looked up and the endpoint says the geocoder is disabled', async () => {
    const t = await makeTestApp();
    try {
      expect(getGeocoder(t.ctx)).toBeNull();
      const res = await api(t.app, t.admin, 'GET', '/api/server/geocode?latitude=1&longitude=2');
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Geocoder is disabled');
    } finally {
      await t.close();
    }
  });
});
