// The actions of a device's detail (issue #5, SPEC §4, §6): the domain's device-action rule (deviceActionButtons)
// says which buttons the viewer gets in the device's state; the slide-to-confirm ones open through the shell's
// openDeviceAction, the others through openDialog or the router; the trail toggle is open to everyone.
import { Button, Group } from '@mantine/core';
import {
  IconAnchor,
  IconChartLine,
  IconEdit,
  IconHistory,
  IconLock,
  IconLockOpen,
  IconRoute,
  IconShare,
  IconTerminal2,
  IconTrash,
} from '@tabler/icons-react';
import { deviceActionButtons, deviceActionState, type Device, type DeviceActionKey } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { HintIcon } from '../../components/floating.tsx';
import { useNavigate } from '../../components/navigation.ts';
import { useViewer } from '../../components/useCan.ts';
import { openDeviceAction } from '../../shell/deviceActions.ts';
import { openDialog } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';

const ICONS = {
  block: IconLock,
  unlock: IconLockOpen,
  anchor: IconAnchor,
  commands: IconTerminal2,
  share: IconShare,
  history: IconHistory,
  telemetry: IconChartLine,
  edit: IconEdit,
  delete: IconTrash,
};

/** The button's colour: destructive ones red, an anchor in force orange. */
function colourOf(key: DeviceActionKey, active: boolean): string | undefined {
  if (key === 'delete' || key === 'block') return 'red';
  return key === 'anchor' && active ? 'orange' : undefined;
}

export function DeviceActionBar({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const viewer = useViewer();
  const anchored = useLive((s) => s.anchored.has(device.id));
  const position = useLive((s) => s.positions[device.id]);
  const trailId = useLive((s) => s.trailId);
  // what each button does
  const run: Record<DeviceActionKey, () => void> = {
    block: () => openDeviceAction({ kind: 'block', device }),
    unlock: () => openDeviceAction({ kind: 'unlock', device }),
    anchor: () => openDeviceAction({ kind: 'anchor', device, anchor: anchored ? 'disable' : 'enable' }),
    commands: () => openDialog('sendCommand', { deviceId: device.id }),
    share: () => openDialog('deviceShare', { deviceId: device.id }),
    history: () => navigate(`/history?deviceId=${device.id}`),
    telemetry: () => openDialog('graphics', { deviceId: device.id }),
    edit: () => openDialog('deviceEdit', { deviceId: device.id }),
    delete: () => openDeviceAction({ kind: 'delete', device }),
  };
  const buttons = deviceActionButtons(viewer, deviceActionState(anchored, position));
  const label = (key: DeviceActionKey) =>
    key === 'telemetry' || key === 'delete' ? t(`buttons.${key}`, { ns: 'actions' }) : t(`actions.${key}`);
  const trailing = trailId === device.id;

  return (
    <Group gap={6} data-testid="detail-actions">
      {buttons.map(({ key, active }) => {
        const Icon = ICONS[key];
        return (
          <HintIcon
            key={key}
            label={label(key)}
            variant={key === 'block' && active ? 'filled' : 'light'}
            size="lg"
            color={colourOf(key, active)}
            data-testid={`action-${key}`}
            data-active={active || undefined}
            onClick={run[key]}
          >
            <Icon size={18} />
          </HintIcon>
        );
      })}
      <Button
        size="xs"
        variant={trailing ? 'filled' : 'light'}
        leftSection={<IconRoute size={14} />}
        data-testid="action-trail"
        onClick={() => useLive.getState().setTrail(trailing ? null : device.id)}
      >
        {trailing ? t('actions.trailOff') : t('actions.trail')}
      </Button>
    </Group>
  );
}
