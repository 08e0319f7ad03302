// /devices/{id}: device detail (side panel on desktop, bottom sheet on mobile: the shell's Panel does the
// layout and its back button goes to /devices). Status, last update, address, speed, driver, odometer and
// hours, SPEC §9 indicators, attributes with favourites, the device picture and the actions (wired by ACTIONS).
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconAnchor,
  IconChartLine,
  IconClockPause,
  IconEdit,
  IconHistory,
  IconLock,
  IconLockOpen,
  IconPin,
  IconPinnedOff,
  IconRoute,
  IconShare,
  IconTerminal2,
  IconTrash,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { useParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import {
  attrNumber,
  cameraSource,
  deviceActionButtons,
  deviceDriver,
  favoriteAttributes,
  formatDistance,
  formatEngineHours,
  formatSpeed,
  nsKey,
  positionIndicators,
  togglePinned,
  type Attributes,
  type DeviceActionKey,
  type IndicatorLevel,
  type User,
} from '@rastro/domain';
import {
  attributeLabel,
  describeAttributes,
  formatAttributeValue,
  type AttributeFormatContext,
} from '@rastro/domain';
import { openDialog } from '../../shell/dialogs.ts';
import { usePendingFor } from '../../stores/pendingCommands.ts';
import { api } from '../../api/http.ts';
import { useResourceList } from '../../api/resources.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { useAlarmHandler } from '../../components/alarmHandler.ts';
import { CameraView } from './CameraView.tsx';
import { DeviceImage } from './DeviceImage.tsx';
import { DriverName } from './DriverName.tsx';
import { plateOrImei, timeAgo } from './DeviceRow.tsx';

const LEVEL_COLOR: Record<IndicatorLevel, string> = {
  red: 'red',
  amber: 'yellow',
  green: 'green',
  none: 'gray',
};

export function DeviceDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const params = useParams();
  const id = Number(params.deviceId);
  const device = useLive((s) => s.devices[id]);
  const position = useLive((s) => s.positions[id]);
  const trailId = useLive((s) => s.trailId);
  const anchored = useLive((s) => s.anchored.has(id));
  const alarmHandler = useAlarmHandler(id);
  const ns = useSession((s) => s.ns);
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const setUser = useSession((s) => s.setUser);
  const units = useUnits();
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const isPlus = useSession((s) => s.isPlus);
  const pending = usePendingFor(id);
  // driverUniqueId reads as the driver's name (issue #29): the drivers are fetched only when a position names one
  const drivers = useResourceList('drivers', undefined, {
    enabled: deviceDriver(device ?? ({ attributes: {} } as never), position) !== undefined,
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

  // the user's favourites first, then the server's (domain favoriteAttributes); only the user's can be unpinned
  const fav = favoriteAttributes(server, user, ns);
  const favKeys = fav.map((f) => f.key);
  const pinnedByUser = new Set(fav.filter((f) => f.source === 'user').map((f) => f.key));

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
  const names = Object.keys(attrs).sort();
  const favourites = favKeys.filter((k) => attrs[k] !== undefined);
  const others = names.filter((k) => !favKeys.includes(k));

  const togglePin = async (key: string) => {
    if (!user || saving) return;
    const listKey = nsKey(ns, 'deviceAttributes');
    const next: User = {
      ...user,
      attributes: { ...user.attributes, [listKey]: togglePinned(user.attributes?.[listKey], key) },
    };
    setSaving(true);
    try {
      setUser(await api.put<User>(`/users/${user.id}`, next));
    } catch (err) {
      console.warn('favourite not saved', err);
    } finally {
      setSaving(false);
    }
  };

  // the other attributes: the known ones by label, then the unknown ones apart, by raw key (issue #29)
  const described = describeAttributes(Object.fromEntries(others.map((k) => [k, attrs[k]])), fmt);
  const attributeRow = (a: { key: string; label: string; value: string }) => (
    <Group key={a.key} justify="space-between" wrap="nowrap" data-testid={`attr-${a.key}`}>
      <Text size="sm" c="dimmed">
        {a.label}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm">{a.value}</Text>
        <ActionIcon
          size="sm"
          variant="subtle"
          aria-label={t('detail.pin')}
          onClick={() => void togglePin(a.key)}
          disabled={!user}
        >
          <IconPin size={14} />
        </ActionIcon>
      </Group>
    </Group>
  );

  // Device actions (issue #5, ACTIONS): hidden per the permission rules of SPEC §6.
  const open = (name: string, command?: string) =>
    window.dispatchEvent(new CustomEvent(name, { detail: { device, command } }));
  const runAction: Record<DeviceActionKey, () => void> = {
    block: () => open('openBlockModal', 'engineStop'),
    unlock: () => open('openUnlockModal', 'engineResume'),
    anchor: () => open('openAnchorModal', anchored ? 'anchor_disable' : 'anchor_enable'),
    commands: () => openDialog('sendCommand', { deviceId: device.id }),
    share: () => openDialog('deviceShare', { deviceId: device.id }),
    history: () => navigate(`/history?deviceId=${device.id}`),
    telemetry: () => openDialog('graphics', { deviceId: device.id }),
    edit: () => openDialog('deviceEdit', { deviceId: device.id }),
    delete: () => open('openDeleteModal', 'delete'),
  };
  const actionIcons = {
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
  const actions = deviceActionButtons({ user, server, isPlus, ns }, anchored).map((key) => ({
    key,
    icon: actionIcons[key],
  }));
  const actionLabel = (key: DeviceActionKey) =>
    key === 'telemetry' || key === 'delete' ? t(`buttons.${key}`, { ns: 'actions' }) : t(`actions.${key}`);

  const row = (label: string, value: React.ReactNode, testId: string) => (
    <Table.Tr key={testId}>
      <Table.Td c="dimmed" w="40%">
        {label}
      </Table.Td>
      <Table.Td data-testid={testId}>{value}</Table.Td>
    </Table.Tr>
  );

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
            <Badge
              data-testid="detail-status"
              color={device.status === 'online' ? 'green' : device.status === 'offline' ? 'red' : 'gray'}
            >
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

      <Group gap={6} data-testid="detail-actions">
        {actions.map(({ key, icon: Icon }) => (
          <Tooltip key={key} label={actionLabel(key)}>
            <ActionIcon
              variant="light"
              size="lg"
              color={
                key === 'delete' || key === 'block'
                  ? 'red'
                  : key === 'anchor' && anchored
                    ? 'orange'
                    : undefined
              }
              aria-label={actionLabel(key)}
              data-testid={`action-${key}`}
              onClick={runAction[key]}
            >
              <Icon size={18} />
            </ActionIcon>
          </Tooltip>
        ))}
        <Button
          size="xs"
          variant={trailId === id ? 'filled' : 'light'}
          leftSection={<IconRoute size={14} />}
          data-testid="action-trail"
          onClick={() => useLive.getState().setTrail(trailId === id ? null : id)}
        >
          {trailId === id ? t('actions.trailOff') : t('actions.trail')}
        </Button>
      </Group>

      {camera && <CameraView source={camera} name={device.name} />}

      <SimpleGrid cols={3} spacing={6} data-testid="detail-indicators">
        {(['power', 'battery', 'sat'] as const).map((k) => (
          <Badge
            key={k}
            variant="light"
            color={LEVEL_COLOR[ind[k]]}
            data-testid={`indicator-${k}`}
            data-level={ind[k]}
          >
            {t(`indicator.${k}`)}: {formatAttributeValue(k, attrs[k], fmt)}
          </Badge>
        ))}
      </SimpleGrid>

      <Table striped withRowBorders={false} fz="sm">
        <Table.Tbody>
          {row(
            t('detail.lastUpdate'),
            device.lastUpdate
              ? `${new Date(device.lastUpdate).toLocaleString(i18n.language)} (${timeAgo(device.lastUpdate, i18n.language)})`
              : '—',
            'detail-last-update',
          )}
          {row(
            t('detail.address'),
            position?.address ||
              (position ? `${position.latitude.toFixed(5)}, ${position.longitude.toFixed(5)}` : '—'),
            'detail-address',
          )}
          {row(
            t('detail.speed'),
            position ? formatSpeed(position.speed, units.speedUnit, i18n.language) : '—',
            'detail-speed',
          )}
          {row(t('detail.driver'), <DriverName device={device} position={position} />, 'detail-driver')}
          {row(
            t('detail.odometer'),
            odometer !== undefined ? formatDistance(odometer, units.distanceUnit, i18n.language) : '—',
            'detail-odometer',
          )}
          {row(
            t('detail.hours'),
            hours !== undefined ? formatEngineHours(hours, i18n.language) : '—',
            'detail-hours',
          )}
        </Table.Tbody>
      </Table>

      {favourites.length > 0 && (
        <Stack gap={2} data-testid="detail-favourites">
          <Text size="sm" fw={700}>
            {t('detail.favourites')}
          </Text>
          {favourites.map((k) => (
            <Group key={k} justify="space-between" wrap="nowrap">
              <Text size="sm">{attributeLabel(k, i18n.language)}</Text>
              <Group gap={4} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {formatAttributeValue(k, attrs[k], fmt)}
                </Text>
                {pinnedByUser.has(k) && (
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    aria-label={t('detail.unpin')}
                    onClick={() => void togglePin(k)}
                  >
                    <IconPinnedOff size={14} />
                  </ActionIcon>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}

      <Stack gap={2} data-testid="detail-attributes">
        <Text size="sm" fw={700}>
          {t('detail.attributes')}
        </Text>
        <Stack gap={2} data-testid="detail-known">
          {described.known.map(attributeRow)}
        </Stack>
        {described.others.length > 0 && (
          <Stack gap={2} data-testid="detail-others">
            <Text size="xs" fw={700} c="dimmed" mt={4}>
              {t('detail.others')}
            </Text>
            {described.others.map(attributeRow)}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}
