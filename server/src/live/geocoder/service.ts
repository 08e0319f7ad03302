// Addresses for positions and reports through a reverse geocoder (off unless GEOCODER_URL is set): answers cached
// by coordinates (~11 m), requests paced to the provider's limit and made one at a time, the newest position of
// each device looked up as it arrives (older queued ones are dropped: they are superseded), and reports filled from
// the cache with their misses queued for later. A provider failure leaves the address empty; nothing else breaks.
import type { Position } from '@rastro/domain';
import type { ReverseGeocoder } from './client.ts';

export const CACHE_ENTRIES = 20_000;
/** At most this many coordinates wait for a background lookup (report misses). */
export const BACKLOG_MAX = 500;

export interface GeocoderOptions {
  minIntervalMs: number;
  language: () => string;
  /** Stores an address found for a stored position. */
  saveAddress?: (position: Position, address: string) => Promise<void> | void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const coordKey = (lat: number, lon: number, lang: string) => `${lat.toFixed(4)},${lon.toFixed(4)},${lang}`;

export class GeocoderService {
  private readonly cache = new Map<string, string | null>();
  private chain: Promise<unknown> = Promise.resolve();
  private lastCall = Number.NEGATIVE_INFINITY;
  private readonly latest = new Map<number, Position>();
  private readonly backlog = new Map<string, [number, number]>();
  private draining = false;
  readonly stats = { requests: 0, hits: 0, failures: 0, saved: 0 };

  constructor(
    private readonly client: ReverseGeocoder,
    private readonly o: GeocoderOptions,
  ) {}

  /** The cached address (undefined when never looked up; null when the provider had none). */
  cached(latitude: number, longitude: number): string | null | undefined {
    const key = coordKey(latitude, longitude, this.o.language());
    if (!this.cache.has(key)) return undefined;
    const v = this.cache.get(key)!;
    this.cache.delete(key); // keep recently used entries at the end
    this.cache.set(key, v);
    this.stats.hits++;
    return v;
  }

  /** Looks an address up (cache first, then the provider, paced); null when unknown or on failure. */
  reverse(latitude: number, longitude: number): Promise<string | null> {
    const hit = this.cached(latitude, longitude);
    if (hit !== undefined) return Promise.resolve(hit);
    const run = this.chain.then(() => this.call(latitude, longitude));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async call(latitude: number, longitude: number): Promise<string | null> {
    const language = this.o.language();
    const key = coordKey(latitude, longitude, language);
    if (this.cache.has(key)) return this.cache.get(key)!;
    const now = this.o.now ?? Date.now;
    const wait = this.lastCall + this.o.minIntervalMs - now();
    if (wait > 0) await (this.o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))))(wait);
    this.lastCall = now();
    this.stats.requests++;
    try {
      const address = await this.client.reverse(latitude, longitude, language);
      this.cache.set(key, address);
      if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      return address;
    } catch {
      this.stats.failures++;
      return null; // not cached: a later request tries again
    }
  }

  /** Newest positions of devices: each gets its address in the background, stored with the position. */
  enqueue(positions: readonly Position[]): void {
    for (const p of positions) if (!p.address) this.latest.set(p.deviceId, p);
    void this.drain();
  }

  /** Fills `address` fields from the cache; misses are queued for a background lookup. */
  fill<T>(rows: T[], fields: ReadonlyArray<{ address: keyof T; lat: keyof T; lon: keyof T }>): T[] {
    for (const row of rows) {
      for (const f of fields) {
        if (row[f.address]) continue;
        const lat = row[f.lat] as unknown as number;
        const lon = row[f.lon] as unknown as number;
        if (typeof lat !== 'number' || typeof lon !== 'number') continue;
        const hit = this.cached(lat, lon);
        if (hit) (row as Record<keyof T, unknown>)[f.address] = hit;
        else if (hit === undefined && this.backlog.size < BACKLOG_MAX)
          this.backlog.set(coordKey(lat, lon, ''), [lat, lon]);
      }
    }
    void this.drain();
    return rows;
  }

  /** Resolves when the background queues are empty (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining || this.latest.size || this.backlog.size) await new Promise((r) => setTimeout(r, 5));
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const next = this.latest.entries().next();
        if (!next.done) {
          const [deviceId, p] = next.value;
          this.latest.delete(deviceId);
          const address = await this.reverse(p.latitude, p.longitude);
          if (address) {
            await this.o.saveAddress?.(p, address);
            this.stats.saved++;
          }
          continue;
        }
        const coord = this.backlog.entries().next();
        if (coord.done) break;
        this.backlog.delete(coord.value[0]);
        await this.reverse(coord.value[1][0], coord.value[1][1]);
      }
    } finally {
      this.draining = false;
    }
  }
}
