// The theme editor's calls (client A, base /{ns}): PUT /theme and POST /theme/images/{slot}.
import type { ThemeImageSlot, ThemeSettings } from '@rastro/domain';
import { ext, HttpError } from '../../api/http.ts';

export const saveTheme = (theme: ThemeSettings) => ext.put<unknown>('/theme', theme);

/** Uploads one image (raw body); answers the URL to put into the theme. */
export async function uploadThemeImage(slot: ThemeImageSlot, file: Blob): Promise<string> {
  const res = await ext.request<{ url: string }>('POST', `/theme/images/${slot}`, {
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
  return res.data.url;
}

/** The `theme` namespace key explaining a failed upload. */
export function uploadErrorKey(err: unknown): string {
  if (err instanceof HttpError) {
    if (err.status === 413) return 'errors.imageTooLarge';
    if (err.status === 400) return 'errors.notImage';
    if (err.status === 401 || err.status === 403) return 'errors.forbidden';
  }
  return 'errors.uploadFailed';
}
