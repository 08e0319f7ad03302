// One row of the device list: status colour, name, plate or IMEI, last update, speed and state icons.
import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconAnchor,
  IconKey,
  IconLock,
  IconNavigation,
  IconUser,
} from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PendingCommandMark } from '../../components/PendingCommandMark.tsx';
import {
  deviceColor,
  deviceDriver,
  devicePlate,
  formatSpeed,
  hasAlarm,
  hasIgnition,
  isDeviceMoving,
  isLocked,
  type Device,
  type Position,
  type SpeedUnit,
} from '@rastro/domain';

/** The status badge's colour (list row and detail). */
export const statusBadgeColor = (status: string) =>
  status === 'online' ? 'green' : status === 'offline' ? 'red' : 'gray';

/** The plate (the domain's devicePlate, as the device form reads it), else the IMEI. */
export const plateOrImei = (device: Device): string => devicePlate(device)?.trim() || device.uniqueId;

/**
 * A state indicator of a row: the icon with its name for screen readers and as a native tooltip. Rows are
 * rendered by the dozen on every scroll frame, so no floating tooltip machinery per icon. Shown only when `on`.
 */
function StateIcon({ on, label, children }: { on: boolean; label: string; children: ReactNode }) {
  if (!on) return null;
  return (
    <span role="img" aria-label={label} title={label} style={{ display: 'inline-flex' }}>
      {children}
    </span>
  );
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let f = relativeFormats.get(locale);
  if (!f) relativeFormats.set(locale, (f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  return f;
}

/** "3 min ago" in the user's language; '' when never updated. */
export function timeAgo(iso: string | null, locale: string, now = Date.now()): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.round((t - now) / 1000);
  const rtf = relativeFormat(locale);
  const abs = Math.abs(s);
  if (abs < 60) return rtf.format(s, 'second');
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}

export interface DeviceRowProps {
  device: Device;
  position: Position | undefined;
  anchored: boolean;
  selected: boolean;
  ns: string;
  speedUnit: SpeedUnit;
  locale: string;
  onOpen: (id: number) => void;
}

export const DeviceRow = memo(function DeviceRow(p: DeviceRowProps) {
  const { t } = useTranslation('devices');
  const { device, position } = p;
  const color = deviceColor(device, position, p.ns);
  const moving = isDeviceMoving(position);
  return (
    <UnstyledButton
      onClick={() => p.onOpen(device.id)}
      data-testid="device-row"
      data-device-id={device.id}
      data-status={device.status}
      aria-current={p.selected ? 'true' : undefined}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        width: '100%',
        height: '100%',
        padding: '4px 8px',
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: p.selected ? 'var(--mantine-color-blue-light)' : undefined,
      }}
    >
      <span
        aria-hidden
        style={{ width: 12, height: 12, borderRadius: 6, background: color, flex: '0 0 auto' }}
        data-testid="device-color"
      />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={600} truncate data-testid="device-name">
          {device.name}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {/* a device that never reported has no time: no dangling separator */}
          {[plateOrImei(device), timeAgo(device.lastUpdate, p.locale)].filter(Boolean).join(' · ')}
        </Text>
      </div>
      <Group gap={4} wrap="nowrap" style={{ flex: '0 0 auto' }}>
        <StateIcon on={moving} label={t('state.motion')}>
          <IconNavigation size={14} style={{ transform: `rotate(${position?.course ?? 0}deg)` }} />
        </StateIcon>
        <StateIcon on={hasIgnition(position)} label={t('state.ignition')}>
          <IconKey size={14} color="var(--mantine-color-green-7)" />
        </StateIcon>
        <StateIcon on={isLocked(position)} label={t('state.locked')}>
          <IconLock size={14} color="var(--mantine-color-red-7)" />
        </StateIcon>
        <PendingCommandMark deviceId={device.id} />
        <StateIcon on={p.anchored} label={t('state.anchor')}>
          <IconAnchor size={14} color="var(--mantine-color-orange-7)" />
        </StateIcon>
        <StateIcon on={deviceDriver(device, position) !== undefined} label={t('state.driver')}>
          <IconUser size={14} />
        </StateIcon>
        <StateIcon on={hasAlarm(position)} label={t('state.alert')}>
          <IconAlertTriangle size={14} color="var(--mantine-color-red-7)" />
        </StateIcon>
        {position && (
          <Text size="xs" c="dimmed" w={56} ta="right">
            {formatSpeed(position.speed, p.speedUnit, p.locale)}
          </Text>
        )}
        <Badge size="xs" variant="light" color={statusBadgeColor(device.status)}>
          {t(`status.${device.status}`)}
        </Badge>
      </Group>
    </UnstyledButton>
  );
});
