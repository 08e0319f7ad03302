// Status counts (click to filter), the filter popover (combined, device state, advanced filters one per type,
// category hide list, show only one) and the sort menu of SPEC §2 and §4.
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Indicator,
  Menu,
  NativeSelect,
  Popover,
  Stack,
  Text,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconFilter, IconSortAscending } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ADVANCED_FILTER_TYPES,
  COMBINED_FILTERS,
  DEVICE_STATES,
  SORT_KEYS,
  distinctAttributeValues,
  setAdvancedFilter,
  setCombinedFilter,
  setMotionFilter,
  setStatusFilter,
  toggleHiddenCategory,
  traccarName,
  type AdvancedFilterType,
  type CombinedFilter,
  type Device,
  type DeviceCounts,
  type DeviceFilterState,
  type DeviceState,
} from '@rastro/domain';
import { useLive, type FilterPatch } from '../../stores/live.ts';

/** Applies a domain transition (which works on the full state) to the store's query-less filters. */
function transition(fn: (s: DeviceFilterState) => DeviceFilterState): void {
  useLive.getState().setFilters((f) => {
    const { query: _query, ...rest } = fn({ ...f, query: '' });
    return rest;
  });
}

const COUNT_COLORS = {
  all: 'blue',
  online: 'green',
  offline: 'red',
  unknown: 'gray',
  motion: 'indigo',
} as const;
type CountKey = keyof typeof COUNT_COLORS;
const COUNT_KEYS = Object.keys(COUNT_COLORS) as CountKey[];

export function StatusCounts({ counts }: { counts: DeviceCounts }) {
  const { t } = useTranslation('devices');
  const filters = useLive((s) => s.filters);
  const active = (k: CountKey) => (k === 'motion' ? filters.motion : !filters.motion && filters.status === k);
  return (
    <Group gap={4} wrap="wrap">
      {COUNT_KEYS.map((k) => (
        <Button
          key={k}
          size="compact-xs"
          variant={active(k) ? 'filled' : 'light'}
          color={COUNT_COLORS[k]}
          data-testid={`count-${k}`}
          aria-pressed={active(k)}
          onClick={() =>
            transition((s) => (k === 'motion' ? setMotionFilter(s, !s.motion) : setStatusFilter(s, k)))
          }
        >
          {t(`count.${k}`)}: <span data-testid={`count-${k}-value`}>&nbsp;{counts[k]}</span>
        </Button>
      ))}
    </Group>
  );
}

const TEXT_TYPES: Array<{ type: Exclude<AdvancedFilterType, 'none'>; attr: string }> = [
  { type: 'gps_brand', attr: 'device.gpsBrand' },
  { type: 'gps_model', attr: 'device.model' },
  { type: 'technology', attr: 'device.technology' },
];

export function FilterPopover({ all, filtering }: { all: Device[]; filtering: boolean }) {
  const { t } = useTranslation('devices');
  return (
    // size: the panel is taller than a short window (a phone held sideways, a laptop with the list's header):
    // it takes the height left below its button and scrolls, so its last controls stay reachable
    <Popover
      width={320}
      position="bottom-start"
      shadow="md"
      middlewares={{ flip: true, shift: true, size: { padding: 8 } }}
    >
      {/* the indicator wraps the target: the popover's aria-expanded belongs on the button, not on its div */}
      <Indicator disabled={!filtering} color="orange" size={9} offset={4}>
        <Popover.Target>
          <ActionIcon
            variant={filtering ? 'filled' : 'default'}
            size="lg"
            aria-label={t('filter.title')}
            data-testid="filter-button"
          >
            <IconFilter size={18} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown style={{ overflowY: 'auto' }}>
        <FilterPanel all={all} />
      </Popover.Dropdown>
    </Popover>
  );
}

/** The popover's content, mounted only while it is open: its option lists scan every device. */
function FilterPanel({ all }: { all: Device[] }) {
  const { t, i18n } = useTranslation('devices');
  const filters = useLive((s) => s.filters);
  const setFilters = useLive((s) => s.setFilters);
  const patch = (p: Partial<FilterPatch>) => setFilters((f) => ({ ...f, ...p }));
  const resetFilters = useLive((s) => s.resetFilters);
  const categories = useMemo(() => [...new Set(all.map((d) => d.category || 'default'))].sort(), [all]);
  // the text filters offer the values the devices hold; the others yes or no
  const textValues = useMemo<Partial<Record<string, string[]>>>(
    () => Object.fromEntries(TEXT_TYPES.map(({ type, attr }) => [type, distinctAttributeValues(all, attr)])),
    [all],
  );
  const onlyOptions = useMemo(
    () => [
      { value: '', label: t('filter.allDevices') },
      ...all.slice(0, 2000).map((d) => ({ value: String(d.id), label: d.name })),
    ],
    [all, t],
  );
  const adv = (type: Exclude<AdvancedFilterType, 'none'>, value: string) =>
    transition((s) => setAdvancedFilter(s, type, value || null));

  return (
    <Stack gap="xs">
      <NativeSelect
        label={t('filter.combined')}
        data-testid="filter-combined"
        value={filters.combined}
        data={COMBINED_FILTERS.map((c) => ({ value: c, label: t(`combined.${c}`) }))}
        onChange={(e) => transition((s) => setCombinedFilter(s, e.currentTarget.value as CombinedFilter))}
      />
      <NativeSelect
        label={t('filter.deviceState')}
        data-testid="filter-device-state"
        value={filters.deviceState}
        data={[
          { value: 'all', label: t('filter.any') },
          ...DEVICE_STATES.map((s) => ({ value: s, label: t(`deviceState.${s}`) })),
        ]}
        onChange={(e) => patch({ deviceState: e.currentTarget.value as DeviceState | 'all' })}
      />
      <Text size="sm" fw={600}>
        {t('filter.advanced')}
      </Text>
      {ADVANCED_FILTER_TYPES.filter((type) => type !== 'none').map((type) => (
        <NativeSelect
          key={type}
          label={t(`advanced.${type}`)}
          data-testid={`filter-adv-${type}`}
          value={filters.advanced[type] ?? ''}
          data={[
            { value: '', label: t('filter.any') },
            ...(textValues[type]?.map((v) => ({ value: v, label: v })) ?? [
              { value: 'yes', label: t('filter.yes') },
              { value: 'no', label: t('filter.no') },
            ]),
          ]}
          onChange={(e) => adv(type, e.currentTarget.value)}
        />
      ))}
      <Text size="sm" fw={600}>
        {t('filter.hideCategories')}
      </Text>
      <Group gap={6}>
        {categories.map((c) => (
          <Checkbox
            key={c}
            size="xs"
            label={traccarName('categories', c, i18n.language)}
            data-testid={`filter-hide-${c}`}
            checked={filters.hiddenCategories.includes(c)}
            onChange={() => transition((s) => toggleHiddenCategory(s, c))}
          />
        ))}
      </Group>
      <NativeSelect
        label={t('filter.onlyOne')}
        data-testid="filter-only-one"
        value={filters.onlyDeviceId === null ? '' : String(filters.onlyDeviceId)}
        data={onlyOptions}
        onChange={(e) =>
          patch({ onlyDeviceId: e.currentTarget.value ? Number(e.currentTarget.value) : null })
        }
      />
      <Button variant="light" size="xs" onClick={resetFilters} data-testid="filter-reset">
        {t('filter.reset')}
      </Button>
    </Stack>
  );
}

export function SortMenu() {
  const { t } = useTranslation('devices');
  const sort = useLive((s) => s.sort);
  const sortBy = useLive((s) => s.sortBy);
  const Arrow = sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Menu position="bottom-start" closeOnItemClick={false}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('sort.title')} data-testid="sort-button">
          <IconSortAscending size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('sort.title')}</Menu.Label>
        {SORT_KEYS.map((k) => (
          <Menu.Item
            key={k}
            data-testid={`sort-${k}`}
            data-active={sort.key === k ? sort.direction : undefined}
            onClick={() => sortBy(k)}
            rightSection={sort.key === k ? <Arrow size={14} /> : null}
          >
            {t(`sort.${k}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export function FilteringBadge({ on }: { on: boolean }) {
  const { t } = useTranslation('devices');
  const resetFilters = useLive((s) => s.resetFilters);
  if (!on) return null;
  return (
    <Badge
      color="orange"
      variant="light"
      data-testid="filtering-flag"
      style={{ cursor: 'pointer' }}
      onClick={resetFilters}
    >
      {t('filter.active')}
    </Badge>
  );
}
