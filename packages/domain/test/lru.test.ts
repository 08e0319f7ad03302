import { describe, expect, it } from 'vitest';
import {
  LruCache,
  PRELOADED_CATEGORIES,
  categoryImageUrl,
  deviceImageUrl,
  driverImageUrl,
  deviceImageCandidates,
} from '../src/lru.ts';

describe('image LRU cache (SPEC §9)', () => {
  it('holds 100 entries and evicts the least recently used', () => {
    const c = new LruCache<number, string>();
    expect(c.capacity).toBe(100);
    for (let i = 1; i <= 100; i++) expect(c.set(i, `v${i}`)).toBeUndefined();
    expect(c.size).toBe(100);
    expect(c.get(1)).toBe('v1'); // 1 becomes most recent; 2 is now the oldest
    expect(c.set(101, 'v101')).toEqual([2, 'v2']);
    expect(c.size).toBe(100);
    expect(c.has(2)).toBe(false);
    expect(c.has(1)).toBe(true);
    c.set(3, 'new'); // refresh existing: no eviction
    expect(c.size).toBe(100);
    expect(c.keys().at(-1)).toBe(3);
    expect(c.keys()[0]).toBe(4);
    expect(c.delete(4)).toBe(true);
    c.clear();
    expect(c.size).toBe(0);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
  it('preloaded categories and image paths', () => {
    expect(PRELOADED_CATEGORIES).toEqual(['default', 'car', 'truck', 'motorcycle', 'bus']);
    expect(categoryImageUrl('truck')).toBe('/rastro/assets/images/categories/truck.png');
    expect(categoryImageUrl(null)).toBe('/rastro/assets/images/categories/default.png');
    expect(categoryImageUrl('../x')).toBe('/rastro/assets/images/categories/default.png');
    expect(deviceImageUrl(7, 123, 'x')).toBe('/x/assets/images/7.png?v=123');
    expect(deviceImageUrl(7)).toBe('/rastro/assets/images/7.png');
    expect(driverImageUrl(3)).toBe('/rastro/assets/images/drivers/3.png');
  });
});

describe('device picture candidates', () => {
  it('own picture (cache-busted), its category, the default; no category name the server cannot serve', () => {
    expect(
      deviceImageCandidates({ id: 7, category: 'truck', attributes: { imageTimestamp: 123 } }, 'x'),
    ).toEqual([
      '/x/assets/images/7.png?v=123',
      '/x/assets/images/categories/truck.png',
      '/x/assets/images/categories/default.png',
    ]);
    // the server serves categories/<[a-z0-9_-]{1,40}>.png only: anything else is the default, listed once
    expect(
      deviceImageCandidates({ id: 7, category: 'Big Truck', attributes: { imageVersion: 'a b' } }),
    ).toEqual(['/rastro/assets/images/7.png?v=a%20b', '/rastro/assets/images/categories/default.png']);
  });
});
