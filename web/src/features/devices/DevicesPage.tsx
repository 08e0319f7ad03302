// /devices: the device list (SPEC §2, §4). TanStack Virtual renders only the visible rows, so 10,000 devices
// scroll smoothly; the grouped view (groupPref) inserts one header row per group.
import { Group, Stack, Switch, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { HintIcon } from '../../components/floating.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { useNavigate } from '../../components/navigation.ts';
import { useCan } from '../../components/useCan.ts';
import { openDialog } from '../../shell/dialogs.ts';
import { type Device, type Group as DeviceGroup } from '@rastro/domain';
import { useResourceList } from '../../api/resources.ts';
import { useLive } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { DeviceRow } from './DeviceRow.tsx';
import { FilteringBadge, FilterPopover, SortMenu, StatusCounts } from './DeviceFilters.tsx';
import { useDeviceList } from './useDeviceList.ts';

export const ROW_HEIGHT = 52;
const HEADER_HEIGHT = 32;
/** groupPref key holding the grouped-view switch; the other keys are group ids → collapsed. */
export const GROUPED_KEY = 'grouped';

type Row =
  | { kind: 'device'; device: Device }
  | { kind: 'group'; id: number; name: string; count: number; collapsed: boolean };

export function buildRows(
  visible: Device[],
  grouped: boolean,
  groups: readonly DeviceGroup[],
  collapsed: Record<string, boolean>,
  noGroupName: string,
): Row[] {
  if (!grouped) return visible.map((device) => ({ kind: 'device', device }));
  const byGroup = new Map<number, Device[]>();
  for (const d of visible) {
    const list = byGroup.get(d.groupId ?? 0);
    if (list) list.push(d);
    else byGroup.set(d.groupId ?? 0, [d]);
  }
  const names = new Map(groups.map((g) => [g.id, g.name]));
  const ids = [...byGroup.keys()].sort((a, b) =>
    a === 0 ? 1 : b === 0 ? -1 : (names.get(a) ?? '').localeCompare(names.get(b) ?? ''),
  );
  return ids.flatMap((id): Row[] => {
    const list = byGroup.get(id)!;
    const shut = !!collapsed[String(id)];
    const name = id === 0 ? noGroupName : (names.get(id) ?? `#${id}`);
    const header: Row = { kind: 'group', id, name, count: list.length, collapsed: shut };
    return shut ? [header] : [header, ...list.map((device) => ({ kind: 'device' as const, device }))];
  });
}

export function DevicesPage() {
  const { t, i18n } = useTranslation('devices');
  const navigate = useNavigate();
  const canAdd = useCan('device.create');
  const data = useDeviceList();
  const query = usePrefs((s) => s.query);
  const setQuery = usePrefs((s) => s.setQuery);
  const groupPref = usePrefs((s) => s.groupPref);
  const setGroupPref = usePrefs((s) => s.setGroupPref);
  const selectedId = useLive((s) => s.selectedId);
  const anchored = useLive((s) => s.anchored);
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const grouped = !!groupPref[GROUPED_KEY];
  const groups = useResourceList('groups', undefined, { enabled: grouped, staleTime: 60_000 });
  const rows = useMemo(
    () => buildRows(data.visible, grouped, groups.data ?? [], groupPref, t('noGroup')),
    [data.visible, grouped, groups.data, groupPref, t],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'group' ? HEADER_HEIGHT : ROW_HEIGHT),
    overscan: 8,
    // scroll renders batch with React's own scheduling instead of one synchronous render per scroll event
    useFlushSync: false,
    getItemKey: (i) => {
      const r = rows[i];
      return r.kind === 'group' ? `g${r.id}` : r.device.id;
    },
  });

  const open = useCallback(
    (id: number) => {
      useLive.getState().select(id, true);
      navigate(`/devices/${id}`);
    },
    [navigate],
  );

  return (
    <Stack gap="xs" data-testid="devices-page">
      <SearchInput size="sm" label={t('search')} value={query} onSearch={setQuery} testId="device-search" />
      <StatusCounts counts={data.counts} />
      <Group gap="xs" justify="space-between">
        <Group gap="xs">
          <FilterPopover all={data.all} filtering={data.filtering} />
          <SortMenu />
          <Switch
            size="xs"
            label={t('grouped')}
            checked={grouped}
            data-testid="group-toggle"
            onChange={(e) => setGroupPref({ ...groupPref, [GROUPED_KEY]: e.currentTarget.checked })}
          />
        </Group>
        <Group gap="xs">
          {canAdd && (
            // "Add device" (issue #5): the deviceEdit dialog, empty
            <HintIcon
              label={t('deviceEdit:add')}
              size="sm"
              variant="light"
              onClick={() => openDialog('deviceEdit', {})}
              data-testid="device-add"
            >
              <IconPlus size={14} />
            </HintIcon>
          )}
          <FilteringBadge on={data.filtering} />
          <Text size="xs" c="dimmed" data-testid="visible-count">
            {t('shown', { count: data.visible.length })}
          </Text>
        </Group>
      </Group>
      <div
        ref={scrollRef}
        data-testid="device-list"
        data-count={data.visible.length}
        style={{ height: 'max(280px, calc(100dvh - 300px))', overflowY: 'auto', contain: 'strict' }}
      >
        {rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg" data-testid="device-list-empty">
            {data.filtering ? t('emptyFiltered') : t('empty')}
          </Text>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              return (
                <div
                  key={item.key}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: item.size,
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  {row.kind === 'group' ? (
                    <UnstyledButton
                      data-testid="group-row"
                      data-group-id={row.id}
                      onClick={() => setGroupPref({ ...groupPref, [String(row.id)]: !row.collapsed })}
                      display="flex"
                      w="100%"
                      h="100%"
                      px={6}
                      bg="var(--mantine-color-default-hover)"
                      style={{ alignItems: 'center', gap: 6 }}
                    >
                      {row.collapsed ? <IconChevronRight size={14} /> : <IconChevronDown size={14} />}
                      <Text size="sm" fw={700}>
                        {row.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        ({row.count})
                      </Text>
                    </UnstyledButton>
                  ) : (
                    <DeviceRow
                      device={row.device}
                      position={data.positions[row.device.id]}
                      anchored={anchored.has(row.device.id)}
                      selected={row.device.id === selectedId}
                      ns={ns}
                      speedUnit={units.speedUnit}
                      locale={i18n.language}
                      onOpen={open}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </Stack>
  );
}
