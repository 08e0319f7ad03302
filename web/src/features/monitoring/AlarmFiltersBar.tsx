// The desk's filters (issue #32): state, type and device.
import { Group, Select } from '@mantine/core';
import { ALARM_STATES, MONITORING_ALARM_TYPES, type MonitoringAlarmType } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useLiveDeviceOptions } from '../../components/useResourceOptions.ts';
import type { AlarmFilters } from './api.ts';

export function AlarmFiltersBar({
  filters,
  onChange,
}: {
  filters: AlarmFilters;
  onChange: (f: AlarmFilters) => void;
}) {
  const { t } = useTranslation('monitoring');
  const deviceOptions = useLiveDeviceOptions();
  const select = { size: 'xs', comboboxProps: { withinPortal: false } } as const;
  return (
    <Group gap="xs" grow wrap="wrap">
      <Select
        {...select}
        label={t('filter.state')}
        data-testid="alarm-filter-state"
        value={filters.state}
        allowDeselect={false}
        data={[
          { value: 'active', label: t('filter.active') },
          ...ALARM_STATES.map((s) => ({ value: s, label: t(`common:alarms.state.${s}`) })),
          { value: 'all', label: t('filter.all') },
        ]}
        onChange={(v) => v && onChange({ ...filters, state: v as AlarmFilters['state'] })}
      />
      <Select
        {...select}
        label={t('filter.type')}
        data-testid="alarm-filter-type"
        value={filters.type || null}
        placeholder={t('filter.anyType')}
        clearable
        data={MONITORING_ALARM_TYPES.map((ty) => ({ value: ty, label: t(`common:alarms.type.${ty}`) }))}
        onChange={(v) => onChange({ ...filters, type: (v ?? '') as MonitoringAlarmType | '' })}
      />
      <Select
        {...select}
        label={t('filter.device')}
        data-testid="alarm-filter-device"
        value={filters.deviceId ? String(filters.deviceId) : null}
        placeholder={t('filter.anyDevice')}
        clearable
        searchable
        data={deviceOptions}
        onChange={(v) => onChange({ ...filters, deviceId: v ? Number(v) : null })}
      />
    </Group>
  );
}
