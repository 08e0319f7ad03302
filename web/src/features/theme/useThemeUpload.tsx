// Theme images upload at once (POST /{ns}/theme/images/{slot}): one upload at a time, its button spinning.
import { Button, FileButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { THEME_IMAGE_TYPES, type ThemeImageSlot } from '@rastro/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadErrorKey, uploadThemeImage } from './api.ts';

const ACCEPT = THEME_IMAGE_TYPES.join(',');

/** The button ("Upload") that uploads a file to a slot and hands the stored image's URL to `apply`; the image slot
 * (ThemeParts.tsx ImageSlot) draws it with its test id. */
export type UploadButton = (
  slot: ThemeImageSlot,
  apply: (url: string) => void,
) => (testId: string) => ReactNode;

export function useThemeUpload(): { uploading: ThemeImageSlot | null; uploadButton: UploadButton } {
  const { t } = useTranslation('theme');
  const upload = useMutation({
    mutationFn: ({ slot, file }: { slot: ThemeImageSlot; file: File; apply(url: string): void }) =>
      uploadThemeImage(slot, file),
    onSuccess: (url, { apply }) => apply(url),
    onError: (e) => {
      console.warn('theme image upload failed', e);
      notifications.show({ color: 'red', message: t(uploadErrorKey(e)) });
    },
  });
  const uploading = upload.isPending ? upload.variables.slot : null;

  const uploadButton: UploadButton = (slot, apply) => (testId) => (
    <FileButton onChange={(file) => file && upload.mutate({ slot, file, apply })} accept={ACCEPT}>
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
