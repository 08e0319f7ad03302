// Device picture: /{ns}/assets/images/{deviceId}.png, falling back to the category picture
// /{ns}/assets/images/categories/{category}.png and then to the default category. The URL that worked is
// remembered in an LRU cache of 100 entries (SPEC §9); the default categories are preloaded.
import { useEffect, useState } from 'react';
import { attrString, type Device } from '@rastro/domain';

export const IMAGE_CACHE_SIZE = 100;
export const PRELOADED_CATEGORIES = ['default', 'car', 'truck', 'motorcycle', 'bus'] as const;

/** A least-recently-used map: get() refreshes an entry, set() evicts the oldest beyond the capacity. */
export class LruCache<K, V> {
  private map = new Map<K, V>();
  constructor(readonly capacity: number) {}
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const v = this.map.get(key)!;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  get size(): number {
    return this.map.size;
  }
}

export const imageCache = new LruCache<string, string>(IMAGE_CACHE_SIZE);

export const categoryImageUrl = (ns: string, category: string | null | undefined) =>
  `/${ns}/assets/images/categories/${encodeURIComponent(category || 'default')}.png`;

export function deviceImageCandidates(device: Device, ns: string): string[] {
  const v = attrString(device.attributes?.imageTimestamp) ?? attrString(device.attributes?.imageVersion);
  const own = `/${ns}/assets/images/${device.id}.png${v ? `?v=${encodeURIComponent(v)}` : ''}`;
  const list = [own, categoryImageUrl(ns, device.category)];
  const fallback = categoryImageUrl(ns, 'default');
  if (!list.includes(fallback)) list.push(fallback);
  return list;
}

let preloaded = false;
export function preloadCategoryImages(ns: string): void {
  if (preloaded || typeof Image === 'undefined') return;
  preloaded = true;
  for (const c of PRELOADED_CATEGORIES) new Image().src = categoryImageUrl(ns, c);
}

export function DeviceImage({ device, ns, size = 96 }: { device: Device; ns: string; size?: number }) {
  const candidates = deviceImageCandidates(device, ns);
  const key = candidates[0];
  const cached = imageCache.get(key);
  const [index, setIndex] = useState(() => (cached ? Math.max(0, candidates.indexOf(cached)) : 0));
  useEffect(() => preloadCategoryImages(ns), [ns]);
  useEffect(() => {
    const c = imageCache.get(key);
    setIndex(c ? Math.max(0, candidates.indexOf(c)) : 0);
    // candidates derive from key
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const src = candidates[Math.min(index, candidates.length - 1)];
  return (
    <img
      src={src}
      alt={device.name}
      width={size}
      height={size}
      data-testid="device-image"
      style={{ objectFit: 'cover', borderRadius: 8, background: 'var(--mantine-color-default-hover)' }}
      onLoad={() => imageCache.set(key, src)}
      onError={() => setIndex((i) => (i < candidates.length - 1 ? i + 1 : i))}
    />
  );
}
