// /devices/{id}: device detail (side panel on desktop, bottom sheet on mobile: the shell's Panel does the
// layout and its back button goes to /devices). Status, last update, address, speed, driver, odometer and
// hours, SPEC §9 indicators, the device picture, its actions (DeviceActionBar.tsx) and the attributes with
// favourites (DeviceAttributes.tsx).
import { Alert, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { IconAnchor, IconClockPause } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { useParams } from 'wouter';
import {
  attrNumber,
  cameraSource,
  deviceDriver,
  deviceDriverLabel,
  formatAttributeValue,
  formatDistance,
  formatEngineHours,
  formatSpeed,
  positionIndicators,
  type AttributeFormatContext,
  type Attributes,
  type IndicatorLevel,
} from '@rastro/domain';
import { usePendingFor } from '../../stores/pendingCommands.ts';
import { useResourceList } from '../../api/resources.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { useAlarmHandler } from '../../components/alarmHandler.ts';
import { CameraView } from './CameraView.tsx';
import { DeviceActionBar } from './DeviceActionBar.tsx';
import { DeviceAttributes } from './DeviceAttributes.tsx';
import { DeviceImage } from './DeviceImage.tsx';
import { plateOrImei, statusBadgeColor, timeAgo } from './DeviceRow.tsx';
import { useCan } from '../../components/useCan.ts';

const LEVEL_COLOR: Record<IndicatorLevel, string> = {
  red: 'red',
  amber: 'yellow',
  green: 'green',
  none: 'gray',
};

/**
 * The driver (issue #28): the catalogue's name for the driver's code, as reports name a trip's driver, with the
 * code after it in smaller text; the code alone when the catalogue has no such driver.
 */
function DriverText({ label }: { label: ReturnType<typeof deviceDriverLabel> }) {
  if (!label) return <>—</>;
  if (!label.name) return <span data-testid="detail-driver-code">{label.code}</span>;
  return (
    <>
      <span data-testid="detail-driver-name">{label.name}</span>
      {label.code && (
        <Text span size="xs" c="dimmed" ml={6} data-testid="detail-driver-code">
          {label.code}
        </Text>
      )}
    </>
  );
}

export function DeviceDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const params = useParams();
  const id = Number(params.deviceId);
  const device = useLive((s) => s.devices[id]);
  const position = useLive((s) => s.positions[id]);
  const anchored = useLive((s) => s.anchored.has(id));
  const alarmHandler = useAlarmHandler(id);
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const pending = usePendingFor(id);
  // driverUniqueId reads as the driver's name (issue #29): the drivers are fetched only when a position names one,
  // and only by whom the server answers (a share guest sees the driver's code)
  const driversAllowed = useCan('bit.drivers.view');
  const drivers = useResourceList('drivers', undefined, {
    enabled: driversAllowed && deviceDriver(device ?? ({ attributes: {} } as never), position) !== undefined,
    staleTime: 60_000,
  });
  const fmt: AttributeFormatContext = {
    locale: i18n.language,
    distanceUnit: units.distanceUnit,
    driverName: (uniqueId) => drivers.data?.find((d) => d.uniqueId === uniqueId)?.name,
  };

  useEffect(() => {
    if (!Number.isFinite(id)) return;
    const s = useLive.getState();
    if (s.selectedId !== id) s.select(id, true);
  }, [id]);

  if (!device) {
    return (
      <Text c="dimmed" data-testid="device-missing">
        {t('detail.notFound')}
      </Text>
    );
  }

  const ind = positionIndicators(position?.attributes);
  const attrs = { ...(position?.attributes ?? {}) } as Attributes;
  const camera = cameraSource(device.attributes, ns);
  const odometer = attrNumber(attrs.totalDistance) ?? attrNumber(attrs.odometer);
  const hours = attrNumber(attrs.hours);

  const lang = i18n.language;
  // label detail.<key>, test id detail-<key in kebab case>
  const rows: [string, ReactNode][] = [
    [
      'lastUpdate',
      device.lastUpdate
        ? `${new Date(device.lastUpdate).toLocaleString(lang)} (${timeAgo(device.lastUpdate, lang)})`
        : '—',
    ],
    [
      'address',
      position?.address ||
        (position ? `${position.latitude.toFixed(5)}, ${position.longitude.toFixed(5)}` : '—'),
    ],
    ['speed', position ? formatSpeed(position.speed, units.speedUnit, lang) : '—'],
    ['driver', <DriverText label={deviceDriverLabel(device, position, drivers.data)} />],
    ['odometer', odometer !== undefined ? formatDistance(odometer, units.distanceUnit, lang) : '—'],
    ['hours', hours !== undefined ? formatEngineHours(hours, lang) : '—'],
  ];

  return (
    <Stack gap="sm" data-testid="device-detail" data-device-id={device.id}>
      <Group wrap="nowrap" align="flex-start">
        <DeviceImage device={device} ns={ns} />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" data-testid="detail-name">
            {device.name}
          </Text>
          <Text size="sm" c="dimmed">
            {plateOrImei(device)}
          </Text>
          <Group gap={4}>
            <Badge data-testid="detail-status" color={statusBadgeColor(device.status)}>
              {t(`status.${device.status}`)}
            </Badge>
            {anchored && (
              <Badge color="orange" leftSection={<IconAnchor size={12} />}>
                {t('state.anchor')}
              </Badge>
            )}
            {pending.length > 0 && (
              <Badge color="yellow" leftSection={<IconClockPause size={12} />} data-testid="detail-pending">
                {t('pending', { ns: 'actions' })}
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
      {alarmHandler !== null && (
        <Alert color="orange" variant="light" p="xs" data-testid="detail-alarm-handling">
          {t('alarmHandling', { name: alarmHandler })}
        </Alert>
      )}

      <DeviceActionBar device={device} />

      {camera && <CameraView key={camera.url} source={camera} name={device.name} />}

      {/* each badge as wide as its text, wrapping to a second line on a narrow panel: a grid of three cut
          "Energia: 13,2 V" short at 390 px */}
      <Group gap={6} data-testid="detail-indicators">
        {(['power', 'battery', 'sat'] as const).map((k) => (
          <Badge
            key={k}
            variant="light"
            tt="none"
            color={LEVEL_COLOR[ind[k]]}
            data-testid={`indicator-${k}`}
            data-level={ind[k]}
          >
            {t(`indicator.${k}`)}: {formatAttributeValue(k, attrs[k], fmt)}
          </Badge>
        ))}
      </Group>

      <Table striped withRowBorders={false} fz="sm">
        <Table.Tbody>
          {rows.map(([key, value]) => (
            <Table.Tr key={key}>
              <Table.Td c="dimmed" w="40%">
                {t(`detail.${key}`)}
              </Table.Td>
              <Table.Td data-testid={`detail-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}>
                {value}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>

      <DeviceAttributes attrs={attrs} fmt={fmt} />
    </Stack>
  );
}
