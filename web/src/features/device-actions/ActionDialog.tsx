// One slide-to-confirm dialog of SPEC §4 (block, unlock, anchor, delete), opened by DeviceActionsHost: a chunk of
// its own, loaded when the first action is asked for (the shell paints without the modal code).
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconClockPause } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  anchorMode,
  deviceActionAllowed,
  FORCE_ATTRIBUTE,
  slideActionDelay,
  type PermissionContext,
} from '@rastro/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../components/navigation.ts';
import { resourceKeys } from '../../api/resources.ts';
import { SlideToConfirm } from '../../components/SlideToConfirm.tsx';
import { SpeedAgeNote } from './SpeedAgeNote.tsx';
import { useLive } from '../../stores/live.ts';
import { usePendingCommands } from '../../stores/pendingCommands.ts';
import { useSession } from '../../stores/session.ts';
import {
  ENGINE_COMMAND,
  commandPayload,
  commandType,
  deleteDevice,
  refusalOf,
  runAnchor,
  sendCommand,
  type ActionEventDetail,
  type ActionKind,
} from './actions.ts';
import { refusalMessage } from '../../api/http.ts';

export interface OpenAction extends ActionEventDetail {
  kind: ActionKind;
  seq: number;
}

/** Whether the signed-in user may run this action (the server refuses too; this avoids a useless request). */
export function actionAllowed(ctx: PermissionContext, kind: ActionKind, command: string): boolean {
  return deviceActionAllowed(ctx, kind, anchorMode(command) === 'disable');
}

function usePermissionContext(): PermissionContext {
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  return { user, server, isPlus, ns };
}

export function ActionDialog({ action, onClose }: { action: OpenAction; onClose(): void }) {
  const { t, i18n } = useTranslation('actions');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const ctx = usePermissionContext();
  const { device, kind } = action;
  const command =
    commandType(action.command) || (kind === 'block' || kind === 'unlock' ? ENGINE_COMMAND[kind] : '');
  const mode = kind === 'anchor' ? (anchorMode(command) ?? 'enable') : null;
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  // engine-block interlock: the server's refusal text; an administrator may then block anyway (force)
  const [refusal, setRefusal] = useState<string | null>(null);
  const running = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const mounted = useRef(true);
  const allowed = actionAllowed(ctx, kind, command);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const toast = (color: 'green' | 'red' | 'yellow', message: string) =>
    notifications.show({ color, message, autoClose: 4500 });

  const execute = useCallback(
    async (force = false) => {
      try {
        if (kind === 'block' || kind === 'unlock') {
          const type = command || ENGINE_COMMAND[kind];
          const base = typeof action.command === 'object' ? action.command : {};
          const payload = commandPayload(device.id, type, base);
          if (force) payload.attributes = { ...payload.attributes, [FORCE_ATTRIBUTE]: true };
          const r = await sendCommand(payload, i18n.language);
          if (r.status === 'pending') {
            usePendingCommands.getState().add(device.id, type);
            toast('yellow', t('actions.commandPending', { ns: 'common' }));
            if (mounted.current) setPending(true);
            return;
          }
          toast('green', t(kind === 'block' ? 'actions.blockSent' : 'actions.unlockSent', { ns: 'common' }));
          onClose();
        } else if (kind === 'anchor') {
          await runAnchor(
            device,
            mode === 'disable' ? 'anchor_disable' : 'anchor_enable',
            useLive.getState().positions[device.id],
          );
          await qc.invalidateQueries({ queryKey: resourceKeys.all('geofences') });
          toast('green', t(mode === 'disable' ? 'anchorDisabled' : 'anchorEnabled', { name: device.name }));
          onClose();
        } else {
          await deleteDevice(device);
          const live = useLive.getState();
          const { [device.id]: _gone, ...devices } = live.devices;
          live.setDevices(Object.values(devices));
          if (live.selectedId === device.id) live.select(null);
          void qc.invalidateQueries({ queryKey: resourceKeys.all('devices') });
          toast('green', t('actions.deviceDeleted', { ns: 'common' }));
          onClose();
          navigate('/devices');
        }
      } catch (err) {
        console.warn('device action failed', err);
        const refused = kind === 'block' || kind === 'unlock' ? refusalOf(err) : null;
        if (refused) {
          // shown in the dialog, where an administrator can choose to block anyway
          if (mounted.current) {
            setRefusal(refused);
            setResetKey((k) => k + 1);
          }
          return;
        }
        const key =
          kind === 'anchor'
            ? 'actions.anchorError'
            : kind === 'delete'
              ? 'actions.deleteError'
              : 'actions.commandError';
        toast('red', refusalMessage(err) ?? t(key, { ns: 'common' }));
        if (mounted.current) setResetKey((k) => k + 1);
      } finally {
        running.current = false;
        if (mounted.current) setBusy(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [kind, command, device, mode, i18n.language],
  );

  const confirm = (force: boolean) => {
    // a double gesture (or a second confirmation while busy) sends one request
    if (running.current || !allowed) return;
    running.current = true;
    setBusy(true);
    const delay = slideActionDelay(kind);
    if (delay === 0) void execute(force);
    else timer.current = setTimeout(() => void execute(force), delay);
  };
  const onConfirm = () => confirm(false);
  const canForce = kind === 'block' && !!refusal && !!ctx.user?.administrator;

  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    if (kind === 'anchor' && !busy && !pending)
      toast('yellow', t('actions.cancelledByUser', { ns: 'common' }));
    onClose();
  };

  // SPEC §4 silent mode: the anchor acts without asking.
  const silentStarted = useRef(false);
  useEffect(() => {
    if (kind === 'anchor' && action.silent && allowed && !silentStarted.current) {
      silentStarted.current = true;
      running.current = true;
      setBusy(true);
      void execute();
    }
  }, [kind, action.silent, allowed, execute]);

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
            onConfirm={onConfirm}
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
