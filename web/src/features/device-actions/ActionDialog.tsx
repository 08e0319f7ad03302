// One slide-to-confirm dialog of SPEC §4 (block, unlock, anchor, delete), opened with the shell's openDeviceAction
// and shown by DeviceActionsHost: a chunk of its own, loaded when the first action is asked for (the shell paints
// without the modal code). What a confirmation does is useActionRun.ts.
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockPause } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SlideToConfirm } from '../../components/SlideToConfirm.tsx';
import type { OpenDeviceAction } from '../../shell/deviceActions.ts';
import { useSession } from '../../stores/session.ts';
import { SpeedAgeNote } from './SpeedAgeNote.tsx';
import { anchorDirection, useActionRun } from './useActionRun.ts';

export function ActionDialog({ action, onClose }: { action: OpenDeviceAction; onClose(): void }) {
  const { t } = useTranslation('actions');
  const { allowed, busy, pending, refusal, resetKey, confirm, cancel } = useActionRun(action, onClose);
  const administrator = useSession((s) => !!s.user?.administrator);
  const { device, kind } = action;
  const mode = anchorDirection(action);
  const canForce = kind === 'block' && !!refusal && administrator;
  const title = t(`${kind}.title`, { name: device.name });
  const question =
    kind === 'anchor'
      ? t(mode === 'disable' ? 'actions.anchorDisableConfirm' : 'actions.anchorEnableConfirm', {
          ns: 'common',
          name: device.name,
        })
      : t(`${kind}.question`, { name: device.name });

  return (
    <Modal
      opened
      onClose={cancel}
      title={title}
      centered
      closeOnClickOutside={!busy}
      data-testid={`action-dialog-${kind}`}
    >
      <Stack gap="md">
        <Text size="sm" data-testid="action-question">
          {question}
        </Text>
        {kind === 'block' && !pending && <SpeedAgeNote deviceId={device.id} />}
        {!allowed && (
          <Alert color="red" data-testid="action-denied">
            {t('denied')}
          </Alert>
        )}
        {refusal && (
          <Alert color="red" data-testid="action-refused">
            {refusal}
          </Alert>
        )}
        {canForce && !pending && (
          <Stack gap="xs" data-testid="action-force">
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="action-force-warning">
              {t('block.forceWarning', { name: device.name })}
            </Alert>
            <SlideToConfirm
              label={t('block.forceSlide')}
              handleLabel={t('slideHandle', { action: t('block.forceSlide') })}
              onConfirm={() => confirm(true)}
              disabled={busy}
              resetKey={resetKey}
              color="red"
              testId="action-force-slide"
            />
          </Stack>
        )}
        {pending ? (
          <Alert color="yellow" icon={<IconClockPause size={18} />} data-testid="action-pending">
            {t('pendingInDialog', { name: device.name })}
          </Alert>
        ) : canForce ? null : (
          <SlideToConfirm
            label={t(`${kind}.slide`)}
            handleLabel={t('slideHandle', { action: title })}
            onConfirm={() => confirm(false)}
            disabled={busy || !allowed}
            resetKey={resetKey}
            color={kind === 'unlock' ? 'green' : kind === 'anchor' ? 'orange' : 'red'}
            testId="action-slide"
          />
        )}
        {busy && (
          <Group gap="xs" data-testid="action-busy">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('busy')}
            </Text>
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel} data-testid="action-cancel">
            {pending ? t('close') : t('cancel')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
