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
function preloadCategoryImages(ns: string): void {
  if (preloaded || typeof Image === 'undefined') return;
  preloaded = true;
  for (const c of PRELOADED_CATEGORIES) new Image().src = categoryImageUrl(c, ns);
}

export function DeviceImage({ device, ns, size = 96 }: { device: Device; ns: string; size?: number }) {
  const candidates = deviceImageCandidates(device, ns);
  const key = candidates[0];
  // the candidate to show: the one that loaded last time, else the first; after a failure, the next one
  const cached = imageCache.get(key);
  const start = cached ? Math.max(0, candidates.indexOf(cached)) : 0;
  const [failed, setFailed] = useState({ key, index: start });
  const index = failed.key === key ? failed.index : start;
  useEffect(() => preloadCategoryImages(ns), [ns]);
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
      onError={() => setFailed({ key, index: Math.min(index + 1, candidates.length - 1) })}
    />
  );
}
