// Uploaded pictures (device picture, driver photo; CONTRACT §4 POST /api/devices/{id}/image): the accepted types
// and the size limit, checked by the forms before upload and by the server (server/src/ext/deviceImages.ts).

export const IMAGE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
/** Device pictures and driver photos (CONTRACT §4: 500,000 bytes). */
export const IMAGE_UPLOAD_MAX_BYTES = 500_000;

/** Why a file cannot be uploaded as a picture: 'badType', 'tooBig', or null. */
export function imageUploadProblem(
  file: { type: string; size: number },
  maxBytes: number = IMAGE_UPLOAD_MAX_BYTES,
): 'badType' | 'tooBig' | null {
  if (!(IMAGE_UPLOAD_TYPES as readonly string[]).includes(file.type)) return 'badType';
  if (file.size > maxBytes) return 'tooBig';
  return null;
}
