// SPEC §9 image cache: 100 entries with least-recently-used eviction, plus the preloaded categories and the
// static image paths of SPEC §7.
import { attrString, DEFAULT_NS } from './attributes.ts';
import type { Attributes } from './types.ts';

export const IMAGE_CACHE_SIZE = 100;
export const PRELOADED_CATEGORIES = ['default', 'car', 'truck', 'motorcycle', 'bus'] as const;

export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number = IMAGE_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Reading an entry makes it the most recently used. */
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const v = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** Returns the evicted [key, value] when the cache was full, else undefined. */
  set(key: K, value: V): [K, V] | undefined {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as K;
      const v = this.map.get(oldest) as V;
      this.map.delete(oldest);
      return [oldest, v];
    }
    return undefined;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** Keys from least to most recently used. */
  keys(): K[] {
    return [...this.map.keys()];
  }
}

/** /{ns}/assets/images/categories/{category}.png ('default' when empty). */
export function categoryImageUrl(category: string | null | undefined, ns: string = DEFAULT_NS): string {
  const c = category && /^[a-z0-9_-]{1,40}$/.test(category) ? category : 'default';
  return `/${ns}/assets/images/categories/${c}.png`;
}

/** /{ns}/assets/images/{deviceId}.png with the attribute imageTimestamp/imageVersion as a cache buster. */
export function deviceImageUrl(
  deviceId: number,
  version?: string | number | null,
  ns: string = DEFAULT_NS,
): string {
  const base = `/${ns}/assets/images/${deviceId}.png`;
  return version !== undefined && version !== null && version !== ''
    ? `${base}?v=${encodeURIComponent(String(version))}`
    : base;
}

export function driverImageUrl(
  driverId: number,
  version?: string | number | null,
  ns: string = DEFAULT_NS,
): string {
  const base = `/${ns}/assets/images/drivers/${driverId}.png`;
  return version !== undefined && version !== null && version !== ''
    ? `${base}?v=${encodeURIComponent(String(version))}`
    : base;
}

/**
 * The pictures to try for a device, in order: its own (cache-busted by the attribute imageTimestamp, else
 * imageVersion), its category's, then the default category's.
 */
export function deviceImageCandidates(
  device: { id: number; category?: string | null; attributes?: Attributes | null },
  ns: string = DEFAULT_NS,
): string[] {
  const version =
    attrString(device.attributes?.imageTimestamp) ?? attrString(device.attributes?.imageVersion);
  const list = [deviceImageUrl(device.id, version, ns), categoryImageUrl(device.category, ns)];
  const fallback = categoryImageUrl('default', ns);
  if (!list.includes(fallback)) list.push(fallback);
  return list;
}
