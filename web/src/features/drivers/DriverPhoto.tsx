// A driver's photo in the drivers dialog (SPEC §3 Driver imageUpdated): shown from /{ns}/assets/images/drivers/{id}.png
// with the imageUpdated cache buster; upload (JPEG, PNG, GIF, WebP ≤ 500 KB, checked here and on the server) and
// remove through POST/DELETE /{ns}/drivers/{id}/image.
import { Avatar, Button, FileButton, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import {
  DRIVER_IMAGE_KEY,
  attrString,
  driverImageUrl,
  imageUploadProblem,
  type Driver,
} from '@rastro/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ext, serverMessage } from '../../api/http.ts';
import { resourceKeys } from '../../api/resources.ts';

export function DriverPhoto({ driver, ns }: { driver: Driver | undefined; ns: string }) {
  const { t } = useTranslation('drivers');
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  /** Sends one change of the photo, then reloads the drivers and says so; a refusal is shown beside it. */
  const change = useMutation({
    mutationFn: async ({ call }: { call: () => Promise<unknown>; message: string }) => {
      await call();
      await qc.invalidateQueries({ queryKey: resourceKeys.all('drivers') });
    },
    onMutate: () => setError(null),
    onSuccess: (_, { message }) => notifications.show({ color: 'green', message }),
    onError: (e) => setError(serverMessage(e) ?? t('photo.badType')),
  });
  if (!driver) return null;
  const stamp = driver.attributes?.[DRIVER_IMAGE_KEY];
  const src = stamp ? driverImageUrl(driver.id, attrString(stamp), ns) : undefined;
  const busy = change.isPending;

  const upload = (file: File | null) => {
    if (!file) return;
    const problem = imageUploadProblem(file);
    if (problem) return setError(t(`photo.${problem}`));
    const headers = { 'Content-Type': file.type };
    const call = () => ext.request('POST', `/drivers/${driver.id}/image`, { body: file, headers });
    change.mutate({ call, message: t('photo.saved') });
  };
  const remove = () =>
    change.mutate({ call: () => ext.del(`/drivers/${driver.id}/image`), message: t('photo.removed') });

  return (
    <Group gap="sm" data-testid="driver-photo">
      <Avatar
        size="lg"
        src={src}
        alt={t('photo.alt', { name: driver.name })}
        name={driver.name}
        color="initials"
      />
      <FileButton onChange={upload} accept="image/jpeg,image/png,image/gif,image/webp">
        {(props) => (
          <Button
            {...props}
            size="xs"
            variant="light"
            loading={busy}
            leftSection={<IconUpload size={14} />}
            data-testid="driver-photo-upload"
          >
            {t('photo.upload')}
          </Button>
        )}
      </FileButton>
      {src && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={remove}
          disabled={busy}
          data-testid="driver-photo-remove"
        >
          {t('photo.remove')}
        </Button>
      )}
      {error && (
        <Text size="xs" c="red" data-testid="driver-photo-error">
          {error}
        </Text>
      )}
    </Group>
  );
}
