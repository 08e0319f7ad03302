// Device picture: /{ns}/assets/images/{deviceId}.png, falling back to the category picture
// /{ns}/assets/images/categories/{category}.png and then to the default category. The URL that worked is
// remembered in an LRU cache of 100 entries (SPEC §9); the default categories are preloaded.
import { useEffect, useState } from 'react';
import {
  categoryImageUrl,
  deviceImageCandidates,
  LruCache,
  PRELOADED_CATEGORIES,
  type Device,
} from '@rastro/domain';

/** Device picture URL → the URL that loaded (SPEC §9: 100 entries, least recently used evicted). */
export const imageCache = new LruCache<string, string>();

let preloaded = false;
export function preloadCategoryImages(ns: string): void {
  if (preloaded || typeof Image === 'undefined') return;
  preloaded = true;
  for (const c of PRELOADED_CATEGORIES) new Image().src = categoryImageUrl(c, ns);
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
