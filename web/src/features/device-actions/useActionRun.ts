// What the slide-to-confirm dialog does once confirmed (SPEC §4, §7, §8): one request per gesture, after the
// action's delay; block and unlock may be queued (pending) or refused by the engine-block interlock, which an
// administrator may then force; anchor and delete toast and close, delete also leaves for /devices.
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  SAFETY_COMMANDS,
  buildCommand,
  deviceActionAllowed,
  deviceActionState,
  FORCE_ATTRIBUTE,
  slideActionDelay,
} from '@rastro/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, refusalMessage } from '../../api/http.ts';
import { resourceKeys } from '../../api/resources.ts';
import { useNavigate } from '../../components/navigation.ts';
import { useViewer } from '../../components/useCan.ts';
import type { OpenDeviceAction } from '../../shell/deviceActions.ts';
import { sendDeviceCommand } from '../../shell/sendCommand.ts';
import { useLive } from '../../stores/live.ts';
import { disableAnchor, enableAnchor, refusalOf } from './actions.ts';

const toast = (color: 'green' | 'red' | 'yellow', message: string) =>
  notifications.show({ color, message, autoClose: 4500 });

/** The anchor's direction of an action (null for the others). */
export const anchorDirection = (action: OpenDeviceAction) =>
  action.kind === 'anchor' ? action.anchor : null;

/** Whether the viewer may run the action, by the domain's device-action rule (the buttons ask it too). */
function useAllowed(action: OpenDeviceAction): boolean {
  const viewer = useViewer();
  const position = useLive((s) => s.positions[action.device.id]);
  const state = deviceActionState(anchorDirection(action) === 'disable', position);
  return deviceActionAllowed(viewer, action.kind, state);
}

/** The dialog's run: busy while a request runs, pending once queued, the interlock's refusal, the slide's reset. */
export function useActionRun(action: OpenDeviceAction, onClose: () => void) {
  const { t, i18n } = useTranslation('actions');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { device, kind } = action;
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  // engine-block interlock: the server's refusal text; an administrator may then block anyway (force)
  const [refusal, setRefusal] = useState<string | null>(null);
  const running = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const allowed = useAllowed(action);

  useEffect(() => () => clearTimeout(timer.current), []);

  const engine = async (k: 'block' | 'unlock', force: boolean) => {
    const base = action.kind === k ? (action.command ?? {}) : {};
    const type = base.type || SAFETY_COMMANDS[k];
    // the body of POST /api/commands/send (SPEC §7): a configured command keeps its description and text channel
    const payload = buildCommand(device.id, type, base.attributes, base.description ?? null);
    payload.textChannel = base.textChannel ?? false;
    if (force) payload.attributes = { ...payload.attributes, [FORCE_ATTRIBUTE]: true };
    if (await sendDeviceCommand(i18n, payload)) return setPending(true);
    toast('green', t(k === 'block' ? 'actions.blockSent' : 'actions.unlockSent', { ns: 'common' }));
    onClose();
  };

  const anchor = async (mode: 'enable' | 'disable') => {
    if (mode === 'enable') await enableAnchor(device, useLive.getState().positions[device.id]);
    else await disableAnchor(device);
    await qc.invalidateQueries({ queryKey: resourceKeys.all('geofences') });
    toast('green', t(mode === 'disable' ? 'anchorDisabled' : 'anchorEnabled', { name: device.name }));
    onClose();
  };

  const remove = async () => {
    await api.del(`/devices/${device.id}`);
    // gone as the socket's removedDevices says it: out of the list and the map, no longer selected or followed
    useLive.getState().applyBatch({ removedDevices: [device.id] });
    void qc.invalidateQueries({ queryKey: resourceKeys.all('devices') });
    toast('green', t('actions.deviceDeleted', { ns: 'common' }));
    onClose();
    navigate('/devices');
  };

  const failed = (err: unknown) => {
    console.warn('device action failed', err);
    setResetKey((k) => k + 1);
    const refused = kind === 'block' || kind === 'unlock' ? refusalOf(err) : null;
    // a refusal is shown in the dialog, where an administrator can choose to block anyway
    if (refused) return setRefusal(refused);
    const what = kind === 'anchor' || kind === 'delete' ? kind : 'command';
    toast('red', refusalMessage(err) ?? t(`actions.${what}Error`, { ns: 'common' }));
  };

  const execute = async (force = false) => {
    try {
      if (action.kind === 'anchor') await anchor(action.anchor);
      else if (action.kind === 'delete') await remove();
      else await engine(action.kind, force);
    } catch (err) {
      failed(err);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const confirm = (force: boolean, delay = slideActionDelay(kind)) => {
    // a double gesture (or a second confirmation while busy) sends one request
    if (running.current || !allowed) return;
    running.current = true;
    setBusy(true);
    if (delay === 0) void execute(force);
    else timer.current = setTimeout(() => void execute(force), delay);
  };

  const cancel = () => {
    clearTimeout(timer.current);
    if (kind === 'anchor' && !busy && !pending)
      toast('yellow', t('actions.cancelledByUser', { ns: 'common' }));
    onClose();
  };

  // SPEC §4 silent mode: the anchor acts without asking.
  const silent = action.kind === 'anchor' && !!action.silent;
  const silentStarted = useRef(false);
  useEffect(() => {
    if (!silent || !allowed || silentStarted.current) return;
    silentStarted.current = true;
    confirm(false, 0);
    // once: the dialog's action never changes (the host mounts a new dialog for another one)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [silent, allowed]);

  return { allowed, busy, pending, refusal, resetKey, confirm, cancel };
}
