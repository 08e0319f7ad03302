// Share one device (SPEC §2 device detail "share"): the link (components/deviceShare.ts) is shown with a copy
// button; on a Plus server the vehicle's links are listed under the form. Opened with
// openDialog('deviceShare', { deviceId }).
import { Button, CopyButton, Divider, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { shareExpiryIssue } from '@rastro/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resourceKeys } from '../../api/resources.ts';
import { openDialog, type DialogProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { defaultExpiry, fromLocalInput } from './expiryInput.ts';
import { ShareList } from './ShareList.tsx';
import { DateField } from '../../components/DateField.tsx';
import { useCan } from '../../components/useCan.ts';
import { createDeviceShare } from '../../components/deviceShare.ts';
import { RequestError } from '../../components/RequestError.tsx';

// deviceId optional: the registry types both dialogs of this module by props the `shares` one (none) also fits
export function ShareDialog({ props: { deviceId = 0 }, onClose }: DialogProps<{ deviceId?: number }>) {
  const { t, i18n } = useTranslation('shares');
  const { t: tc } = useTranslation('common');
  const device = useLive((s) => s.devices[deviceId]);
  const isPlus = useSession((s) => s.isPlus);
  const managed = useCan('shares.manage');
  const qc = useQueryClient();
  const [expiry, setExpiry] = useState(() => defaultExpiry());
  const iso = fromLocalInput(expiry);
  const issue = shareExpiryIssue(iso ?? 'invalid', Date.now());

  // the link made, with its expiry; a Plus server's new link joins the list below
  const create = useMutation({
    mutationFn: (until: string) => createDeviceShare(deviceId, until, isPlus),
    onSuccess: () => isPlus && qc.invalidateQueries({ queryKey: resourceKeys.all('shares') }),
  });
  const created = create.data;

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t('title', { name: device?.name ?? '' })}
      data-testid="share-dialog"
    >
      <Stack>
        <DateField
          clearable
          withTime
          label={t('expiration')}
          value={expiry}
          onChange={(value) => setExpiry(value)}
          error={issue ? tc(issue) : undefined}
          data-testid="share-expiration"
        />
        <Button
          onClick={() => iso && create.mutate(iso)}
          loading={create.isPending}
          disabled={!!issue || !deviceId}
          data-testid="share-create"
        >
          {t('create')}
        </Button>
        <RequestError error={create.error} fallback={t('error')} testId="share-error" />
        {created && (
          <Stack gap={4}>
            <TextInput label={t('link')} value={created.link} readOnly data-testid="share-link" />
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {t('expires', { date: new Date(created.until).toLocaleString(i18n.language) })}
              </Text>
              <CopyButton value={created.link}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy} data-testid="share-copy">
                    {copied ? t('copied') : t('copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        )}
        {managed && deviceId > 0 && (
          <>
            <Divider />
            <Title order={5}>{t('ofDevice')}</Title>
            <ShareList deviceId={deviceId} />
            <Group justify="flex-end">
              <Button
                variant="subtle"
                onClick={() => {
                  // One dialog at a time: the full list replaces this one.
                  onClose();
                  openDialog('shares');
                }}
                data-testid="share-all"
              >
                {t('all')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
