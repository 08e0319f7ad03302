// The paged route asks one page ahead (issue #31): page n+1 is asked for before page n is handed to be drawn, and
// that request is cancelled with the load.
import { describe, expect, it, vi } from 'vitest';
import { routePageRowOf } from '@rastro/domain';
import { createClient } from '../../api/http.ts';
import { loadRoutePages } from './routePages.ts';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const positions = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: 100 + i,
    deviceId: 3,
    latitude: -23.5 + i * 0.001,
    longitude: -46.6 + i * 0.001,
    course: 45,
    speed: i,
    altitude: 700,
    fixTime: new Date(T0 + i * 15_000).toISOString(),
    address: null,
    attributes: {},
  }));

/** A fake /rastro/route over `all`; a page whose `after` is in `hold` answers only once its request is aborted. */
function fakeServer(all: ReturnType<typeof positions>, hold: number[] = []) {
  const asked: string[] = [];
  const aborted: string[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    const after = url.searchParams.get('after');
    asked.push(after ?? '-');
    if (after !== null && hold.includes(Number(after)))
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener('abort', () => {
          aborted.push(after);
          reject(init.signal?.reason);
        }),
      );
    const limit = Number(url.searchParams.get('limit'));
    const start = after === null ? 0 : all.findIndex((p) => p.id === Number(after)) + 1;
    const page = all.slice(start, start + limit);
    expect(url.searchParams.get('format')).toBe('rows');
    return new Response(JSON.stringify(page.map(routePageRowOf)), { status: 200 });
  });
  const client = createClient({
    base: '/rastro',
    timeoutMs: 5000,
    fetchImpl: () => fetchImpl as unknown as typeof fetch,
  });
  return { asked, aborted, client };
}

describe('route pages asked one ahead (issue #31)', () => {
  it('asks page n+1 before page n is drawn, never two ahead, and keeps the order', async () => {
    const all = positions(23);
    const s = fakeServer(all);
    const askedWhenDrawn: string[][] = [];
    const r = await loadRoutePages(3, 'a', 'b', {
      client: s.client,
      sizes: { first: 5, next: 8 },
      onPage: () => askedWhenDrawn.push([...s.asked]),
    });
    expect(askedWhenDrawn).toEqual([
      ['-', '104'],
      ['-', '104', '112'],
      ['-', '104', '112', '120'],
      ['-', '104', '112', '120'],
    ]);
    expect(r.ok && r.points.map((p) => p.id)).toEqual(all.map((p) => p.id));
  });

  it('a new query (the load aborted) cancels the page asked ahead', async () => {
    const s = fakeServer(positions(23), [104]);
    const controller = new AbortController();
    let askedAtAbort: string[] = [];
    const load = loadRoutePages(3, 'a', 'b', {
      client: s.client,
      signal: controller.signal,
      sizes: { first: 5, next: 8 },
      onPage: () => {
        askedAtAbort = [...s.asked];
        controller.abort();
      },
    });
    await expect(load).rejects.toBeDefined();
    expect(askedAtAbort).toEqual(['-', '104']);
    expect(s.asked).toEqual(['-', '104']);
    expect(s.aborted).toEqual(['104']);
  });

  it('a load that ends on a bad page cancels the page asked ahead', async () => {
    const s = fakeServer(positions(23), [104]);
    const r = await loadRoutePages(3, 'a', 'b', {
      client: s.client,
      sizes: { first: 5, next: 8 },
      onPage: () => {
        throw new Error('map gone');
      },
    }).catch((err: unknown) => err);
    expect(r).toBeInstanceOf(Error);
    expect(s.aborted).toEqual(['104']);
  });
});
