// Theme images upload at once (POST /{ns}/theme/images/{slot}): one upload at a time, its button spinning.
import { Button, FileButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { THEME_IMAGE_TYPES, type ThemeImageSlot } from '@rastro/domain';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadErrorKey, uploadThemeImage } from './api.ts';

const ACCEPT = THEME_IMAGE_TYPES.join(',');

/** The button ("Upload") that uploads a file to a slot and hands the stored image's URL to `apply`. */
export type UploadButton = (slot: ThemeImageSlot, apply: (url: string) => void, testId: string) => ReactNode;

export function useThemeUpload(): { uploading: ThemeImageSlot | null; uploadButton: UploadButton } {
  const { t } = useTranslation('theme');
  const [uploading, setUploading] = useState<ThemeImageSlot | null>(null);

  const upload = async (slot: ThemeImageSlot, file: File | null, apply: (url: string) => void) => {
    if (!file) return;
    setUploading(slot);
    try {
      const url = await uploadThemeImage(slot, file);
      apply(url);
    } catch (e) {
      console.warn('theme image upload failed', e);
      notifications.show({ color: 'red', message: t(uploadErrorKey(e)) });
    } finally {
      setUploading(null);
    }
  };

  const uploadButton: UploadButton = (slot, apply, testId) => (
    <FileButton onChange={(f) => void upload(slot, f, apply)} accept={ACCEPT}>
      {(p) => (
        <Button
          {...p}
          size="xs"
          variant="light"
          leftSection={<IconUpload size={14} />}
          loading={uploading === slot}
          disabled={uploading !== null && uploading !== slot}
          data-testid={testId}
        >
          {t('upload')}
        </Button>
      )}
    </FileButton>
  );

  return { uploading, uploadButton };
}
