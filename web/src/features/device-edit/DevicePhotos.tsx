// The installation photos of a device (device form, installation tab): list, upload (type and size checked with
// the domain's image rules), delete; the device picture upload beside them. Photos go to /{ns}/devices/{id}/photos,
// the picture to POST /api/devices/{id}/image (CONTRACT §4).
import { ActionIcon, Alert, Button, FileButton, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IMAGE_UPLOAD_MAX_BYTES, imageUploadProblem, type Device } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ext } from '../../api/http.ts';
import { useLive } from '../../stores/live.ts';

/** The installation photo limit (server: 5 MB); the device picture's is CONTRACT §4's. */
const PHOTO_MAX_BYTES = 5_000_000;

/** Null when the file can be uploaded, else a `deviceEdit` message key. */
function imageProblem(file: Pick<File, 'type' | 'size'>, kind: 'image' | 'photo' = 'image'): string | null {
  const problem = imageUploadProblem(file, kind === 'photo' ? PHOTO_MAX_BYTES : IMAGE_UPLOAD_MAX_BYTES);
  if (problem === 'badType') return 'photos.badType';
  if (problem === 'tooBig') return kind === 'photo' ? 'photos.photoTooBig' : 'photos.tooBig';
  return null;
}

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';
/** The device picture's upload, then the installation photos'. */
const UPLOADS = [
  { kind: 'image', label: 'photos.devicePicture', testId: 'device-image-upload', variant: 'light' },
  { kind: 'photo', label: 'photos.add', testId: 'photo-upload', variant: 'filled' },
] as const;

export function DevicePhotos({
  deviceId,
  device,
  canEdit,
}: {
  deviceId: number;
  device?: Device;
  canEdit: boolean;
}) {
  const { t } = useTranslation('deviceEdit');
  const qc = useQueryClient();
  const photos = useQuery({
    queryKey: ['device-photos', deviceId],
    queryFn: () => ext.get<Array<{ name: string; url: string }>>(`/devices/${deviceId}/photos`),
    enabled: deviceId > 0,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const failed = (e: unknown) => {
    console.warn('photo request failed', e);
    setProblem('photos.failed');
  };
  const refetch = () => qc.invalidateQueries({ queryKey: ['device-photos', deviceId] });
  const upload = useMutation({
    mutationFn: async ({ file, kind }: { file: File; kind: 'photo' | 'image' }) => {
      const body = { body: file, headers: { 'Content-Type': file.type } };
      if (kind === 'photo') {
        await ext.request('POST', `/devices/${deviceId}/photos`, body);
        await refetch();
      } else if (device) {
        // the answer is the stored file name (`device.<ext>`)
        const res = await api.request<string>('POST', `/devices/${deviceId}/image`, {
          ...body,
          responseType: 'text',
        });
        const name = String(res.data).trim();
        const next = {
          ...device,
          attributes: { ...device.attributes, deviceImage: name, imageTimestamp: String(Date.now()) },
        };
        const saved = await api.put<Device>(`/devices/${deviceId}`, next);
        useLive.getState().applyBatch({ devices: [saved] });
      }
    },
    onSuccess: () => notifications.show({ color: 'green', message: t('photos.uploaded') }),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (name: string) => ext.del(`/devices/${deviceId}/photos/${encodeURIComponent(name)}`),
    onSuccess: refetch,
    onError: failed,
  });

  if (deviceId <= 0) {
    return (
      <Text size="sm" c="dimmed" mt="sm" data-testid="photos-save-first">
        {t('validation.deviceSaveFirst', { ns: 'common' })}
      </Text>
    );
  }

  const pick = (file: File | null, kind: 'photo' | 'image') => {
    if (!file) return;
    const p = imageProblem(file, kind);
    setProblem(p);
    if (!p) upload.mutate({ file, kind });
  };

  return (
    <Stack gap="xs" mt="sm" data-testid="device-photos">
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {t('photos.title')}
        </Text>
        {canEdit && (
          <Group gap="xs">
            {UPLOADS.map((u) => (
              <FileButton key={u.kind} onChange={(f) => pick(f, u.kind)} accept={IMAGE_TYPES}>
                {(p) => (
                  <Button
                    size="xs"
                    variant={u.variant}
                    leftSection={u.kind === 'photo' ? <IconUpload size={14} /> : undefined}
                    loading={upload.isPending}
                    {...p}
                    data-testid={u.testId}
                  >
                    {t(u.label)}
                  </Button>
                )}
              </FileButton>
            ))}
          </Group>
        )}
      </Group>
      {problem && (
        <Alert color="red" data-testid="photo-problem">
          {t(problem)}
        </Alert>
      )}
      {photos.data?.length ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          {photos.data.map((p) => (
            <Stack key={p.name} gap={2} data-testid="photo-item">
              <Image src={p.url} alt={p.name} h={90} fit="cover" radius="sm" />
              {canEdit && (
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="red"
                  aria-label={t('photos.delete')}
                  onClick={() => remove.mutate(p.name)}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              )}
            </Stack>
          ))}
        </SimpleGrid>
      ) : (
        <Text size="sm" c="dimmed">
          {t('photos.none')}
        </Text>
      )}
    </Stack>
  );
}
