// Device picture (POST /api/devices/{id}/image, CONTRACT §4) and installation photos (/{ns}/devices/{id}/photos).
import { IMAGE_UPLOAD_MAX_BYTES, imageUploadProblem } from '@rastro/domain';
import { api, ext } from '../../api/http.ts';

/** The installation photo limit (server: 5 MB); the device picture's is CONTRACT §4's. */
const PHOTO_MAX_BYTES = 5_000_000;

export interface Photo {
  name: string;
  url: string;
  size: number;
  uploadedAt: string;
}

/** Null when the file can be uploaded, else a `deviceEdit` message key. */
export function imageProblem(
  file: Pick<File, 'type' | 'size'>,
  kind: 'image' | 'photo' = 'image',
): string | null {
  const problem = imageUploadProblem(file, kind === 'photo' ? PHOTO_MAX_BYTES : IMAGE_UPLOAD_MAX_BYTES);
  if (problem === 'badType') return 'photos.badType';
  if (problem === 'tooBig') return kind === 'photo' ? 'photos.photoTooBig' : 'photos.tooBig';
  return null;
}

/** Uploads the device picture; the answer is the stored file name (`device.<ext>`). */
export async function uploadDeviceImage(deviceId: number, file: File): Promise<string> {
  const res = await api.request<string>('POST', `/devices/${deviceId}/image`, {
    body: file,
    headers: { 'Content-Type': file.type },
    responseType: 'text',
  });
  return String(res.data).trim();
}

export const listPhotos = (deviceId: number) => ext.get<Photo[]>(`/devices/${deviceId}/photos`);

export const uploadPhoto = (deviceId: number, file: File) =>
  ext.request('POST', `/devices/${deviceId}/photos`, { body: file, headers: { 'Content-Type': file.type } });

export const deletePhoto = (deviceId: number, name: string) =>
  ext.del(`/devices/${deviceId}/photos/${encodeURIComponent(name)}`);
