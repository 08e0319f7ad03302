// Camera view of the device detail (SPEC §2 "device detail with camera view", §8 video messages): a device with a
// video address in its attributes shows it; playback retries a few times and gives up with a message.

/** Attributes that may hold a device's video address, in order (the first http(s) one is used). */
export const CAMERA_URL_KEYS = ['videoUrl', 'cameraUrl', 'streamUrl', 'camera'] as const;

/** Tries before "video not available after several attempts". */
export const VIDEO_MAX_ATTEMPTS = 3;
/** A try that has not started playing after this long counts as failed ("video load timeout"). */
export const VIDEO_LOAD_TIMEOUT_MS = 15_000;

export type CameraKind = 'video' | 'image';

export interface CameraSource {
  url: string;
  /** `image`: a still or MJPEG stream shown in an <img>; `video`: a file or stream the <video> element plays. */
  kind: CameraKind;
}

/** The device's camera, or null when it has none. `{ns}.` prefixed keys win over plain ones. */
export function cameraSource(
  attributes: Readonly<Record<string, unknown>> | null | undefined,
  ns: string,
): CameraSource | null {
  const keys = [...CAMERA_URL_KEYS.map((k) => `${ns}.${k}`), ...CAMERA_URL_KEYS];
  for (const key of keys) {
    const v = attributes?.[key];
    if (typeof v !== 'string') continue;
    const url = v.trim();
    if (!/^https?:\/\/[^\s]+$/i.test(url)) continue;
    const path = url.split(/[?#]/, 1)[0]!.toLowerCase();
    const image = /\.(jpe?g|png|gif|webp|mjpe?g|cgi)$/.test(path) || /mjpe?g|snapshot/.test(path);
    return { url, kind: image ? 'image' : 'video' };
  }
  return null;
}

/** The address of try `attempt` (1-based): later tries bypass caches with a query parameter. */
export function cameraAttemptUrl(url: string, attempt: number): string {
  if (attempt <= 1) return url;
  return `${url}${url.includes('?') ? '&' : '?'}_try=${attempt}`;
}
