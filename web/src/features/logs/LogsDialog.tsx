// The global 'logObjects' dialog (SPEC §2 user menu "Advanced Logs": administrators of a Plus server): who did
// what and from where, for the whole server, one user or one device, over a period; searchable, paged, Excel.
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { attrNumber, engineLogLabelKey, formatDecimal, paginate } from '@rastro/domain';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ext, serverMessage } from '../../api/http.ts';
import { useResourceList } from '../../api/resources.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import {
  defaultPeriod,
  PeriodPicker,
  resolvePeriod,
  type PeriodValue,
} from '../../components/PeriodPicker.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { useTimeFormat, useTimeZone } from '../../components/timeZone.ts';
import { XLSX_MIME, buildXlsx, downloadBlob, fileStem } from '../../components/xlsx.ts';
import { useLive } from '../../stores/live.ts';
import {
  filterLogRows,
  LOG_COLUMNS,
  LOG_SCOPES,
  logsPath,
  oldSpeedOf,
  parseLogs,
  toLogRows,
  type LogRow,
  type LogScope,
} from './logRows.ts';

const PAGE = 50;

export function LogsDialog({ onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('logs');
  const devices = useLive((s) => s.devices);
  const users = useResourceList('users');
  const [scope, setScope] = useState<LogScope>('server');
  const [objectId, setObjectId] = useState<number | null>(null);
  const [period, setPeriod] = useState<PeriodValue>(() => defaultPeriod('today'));
  // the answer's actions, or null when it is not a list of actions
  const load = useMutation({
    mutationFn: async ({ path, from, to }: { path: string; from: string; to: string }) =>
      parseLogs(await ext.get<unknown>(path, { from, to })),
  });
  const actions = load.data;
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);

  const timeZone = useTimeZone();
  const formatTime = useTimeFormat(i18n.language);
  const userNames = useMemo(
    () => new Map((users.data ?? []).map((u) => [u.id, u.email || u.name])),
    [users.data],
  );
  const rows = useMemo(() => {
    if (!actions) return [];
    const number = (v: number) => formatDecimal(v, i18n.language, 1);
    return toLogRows(actions, {
      action: (type, attributes) => {
        const key = type === 'command' ? engineLogLabelKey(attributes) : null;
        if (!key) return t(`action.${type}`, { defaultValue: type });
        const speed = attrNumber(attributes.speed);
        const limit = attrNumber(attributes.limit);
        const label = t(key, {
          speed: speed === undefined ? '?' : number(speed),
          limit: limit === undefined ? '?' : number(limit),
        });
        const old = oldSpeedOf(attributes, i18n.language);
        return old
          ? `${label} (${t('command.oldSpeed', { speed: number(old.speed), age: old.age })})`
          : label;
      },
      objectType: (type) => t(`object.${type}`, { defaultValue: type }),
      device: (id) => devices[id]?.name,
      user: (id) => userNames.get(id),
    });
  }, [actions, t, devices, userNames, i18n.language]);
  const shown = useMemo(() => filterLogRows(rows, search), [rows, search]);
  const paged = paginate(shown, page, PAGE);

  const path = logsPath(scope, objectId);
  const range = resolvePeriod(period, timeZone);

  const run = () => {
    if (!path || !range) return;
    setPage(1);
    load.mutate({ path, from: range.from, to: range.to });
  };
  const failure = serverMessage(load.error) ?? '';
  const error = load.isError
    ? failure
      ? t('failedWith', { text: failure })
      : t('failed')
    : actions === null && t('invalidResponse');

  const exportExcel = async () => {
    const data = await buildXlsx([
      {
        name: t('title'),
        columns: LOG_COLUMNS.map(([key, width]) => ({ header: t(`column.${key}`), key, width })),
        rows: shown.map((r) => ({ ...r, time: formatTime.format(r.time) })),
      },
    ]);
    downloadBlob(data, `${fileStem(t('title'), scope)}.xlsx`, XLSX_MIME);
  };

  const objectOptions = (
    scope === 'device'
      ? Object.values(devices).map((d) => ({ value: String(d.id), label: d.name }))
      : (users.data ?? []).map((u) => ({ value: String(u.id), label: `${u.name} (${u.email})` }))
  ).sort((a, b) => a.label.localeCompare(b.label));

  return (
    <Modal opened onClose={onClose} title={t('title')} size="xl" data-testid="logs-dialog">
      <Stack gap="sm">
        <SegmentedControl
          value={scope}
          onChange={(v) => {
            setScope(v as LogScope);
            setObjectId(null);
            load.reset();
          }}
          data={LOG_SCOPES.map((s) => ({ value: s, label: t(`scope.${s}`) }))}
          aria-label={t('scope.label')}
          data-testid="logs-scope"
        />
        {scope !== 'server' && (
          <Select
            label={t(scope === 'user' ? 'pickUser' : 'pickDevice')}
            data={objectOptions}
            value={objectId ? String(objectId) : null}
            onChange={(v) => setObjectId(v ? Number(v) : null)}
            searchable
            nothingFoundMessage={t('nothingFound')}
            data-testid="logs-object"
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <PeriodPicker value={period} onChange={setPeriod} testId="logs-period" />
        <Group justify="space-between">
          <Button onClick={run} disabled={!path || !range} loading={load.isPending} data-testid="logs-run">
            {t('show')}
          </Button>
          {actions && shown.length > 0 && (
            <Button
              variant="default"
              leftSection={<IconFileSpreadsheet size={16} />}
              onClick={() => void exportExcel()}
              data-testid="logs-excel"
            >
              {t('excel')}
            </Button>
          )}
        </Group>
        {load.isPending && <Loader size="sm" aria-label={t('loading')} />}
        {error && (
          <Alert color="red" data-testid="logs-error">
            {error}
          </Alert>
        )}
        {actions && (
          <>
            <SearchInput
              size="sm"
              label={t('search')}
              value={search}
              onSearch={(text) => {
                setSearch(text);
                setPage(1);
              }}
              testId="logs-search"
            />
            <Text size="sm" c="dimmed" data-testid="logs-count" data-count={shown.length}>
              {t('count', { count: shown.length })}
            </Text>
            {shown.length === 0 ? (
              <Text data-testid="logs-empty">{t('empty')}</Text>
            ) : (
              <DataTable<LogRow>
                striped
                highlightOnHover
                data-testid="logs-table"
                scrollMinWidth={640}
                rows={paged.items}
                rowKey={(r) => r.key}
                rowProps={() => ({ 'data-testid': 'logs-row' })}
                columns={LOG_COLUMNS.map(([key]) => ({
                  key,
                  header: t(`column.${key}`),
                  cell: (r) =>
                    key !== 'time' ? r[key] : Number.isFinite(r.time) ? formatTime.format(r.time) : '',
                  props: { 'data-key': key },
                }))}
              />
            )}
            {paged.pages > 1 && (
              <Pagination
                total={paged.pages}
                value={paged.page}
                onChange={setPage}
                data-testid="logs-pages"
              />
            )}
          </>
        )}
      </Stack>
    </Modal>
  );
}
