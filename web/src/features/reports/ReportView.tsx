// One report (summary, trips, stops, events or route): devices and groups, a period of SPEC §9, the query of
// SPEC §7 (repeated deviceId / groupId, type allEvents, ISO from / to, daily false), a paged table (25 by default),
// values in the user's units and currency, Excel export built in the browser, and a row opens its trip, stop or
// event on the map.
import { Alert, Badge, Button, CloseButton, Group, Stack, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { buildReportQuery, paginate, readReportLink, traccarName } from '@rastro/domain';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { z } from 'zod';
import { api, HttpError, serverDetail } from '../../api/http.ts';
import { DeviceGroupSelect } from '../../components/DeviceGroupSelect.tsx';
import { toLocalInput } from '../../components/DateField.tsx';
import {
  defaultPeriod,
  PeriodPicker,
  resolvePeriod,
  type PeriodValue,
} from '../../components/PeriodPicker.tsx';
import { useTimeZone } from '../../components/timeZone.ts';
import { useRouteOverlay } from '../../components/routeOverlay.ts';
import { columnsFor, REPORT_TYPE, type ReportKind, type ReportRow } from './columns.ts';
import { drawReportRow } from './drawReportRow.ts';
import { ReportExport, type Loaded } from './ReportExport.tsx';
import { ReportTable } from './ReportTable.tsx';
import { useReportContext } from './useReportContext.ts';

const ids = (max: number) => z.array(z.number().int().positive()).max(max);
/** The ids (at most `max` of each) and the period. */
const reportIdsAndPeriod = (max: number) =>
  z.object({ deviceIds: ids(max), groupIds: ids(max), from: z.iso.datetime(), to: z.iso.datetime() });
const inOrder = (f: { from: string; to: string }) => Date.parse(f.from) <= Date.parse(f.to);
const invalidPeriod = { message: 'period.invalid', path: ['to'] };

/** The report form: at least one device or group, a valid period. */
export const reportFormSchema = reportIdsAndPeriod(10_000)
  .refine((f) => f.deviceIds.length + f.groupIds.length > 0, {
    message: 'form.pickDevice',
    path: ['deviceIds'],
  })
  .refine(inOrder, invalidPeriod);

/** A link's period without devices or groups: every device of the caller (the dashboard's unfiltered figures). */
const linkRangeSchema = reportIdsAndPeriod(0).refine(inOrder, invalidPeriod);

export function ReportView({ kind }: { kind: ReportKind }) {
  const { t, i18n } = useTranslation('reports');
  const tz = useTimeZone();
  const overlay = useRouteOverlay();

  // a link (the dashboard's figures) opens the report filled in with its exact period, and runs it
  const [search] = useSearchParams();
  const [link] = useState(() => readReportLink(search));
  const [deviceIds, setDeviceIds] = useState<string[]>(() => (link?.deviceIds ?? []).map(String));
  const [groupIds, setGroupIds] = useState<string[]>(() => (link?.groupIds ?? []).map(String));
  // the link's period as the picker shows it: until it is changed, the report runs on the link's exact instants
  const [linkPeriod] = useState<PeriodValue | null>(() =>
    link
      ? { period: 'custom', from: toLocalInput(new Date(link.from)), to: toLocalInput(new Date(link.to)) }
      : null,
  );
  const [period, setPeriod] = useState<PeriodValue>(() => linkPeriod ?? defaultPeriod('today'));
  const [types, setTypes] = useState<string[]>(() => (kind === 'events' ? (link?.types ?? []) : []));
  // until a device or group is picked, a link without any stands for all of the caller's devices
  const allDevices = !!link && deviceIds.length === 0 && groupIds.length === 0;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(25);
  const [selected, setSelected] = useState<number | null>(null);

  const ctx = useReportContext();
  const columns = useMemo(() => columnsFor(kind, ctx), [kind, ctx]);

  const run = async () => {
    setError(null);
    const range = link && period === linkPeriod ? link : resolvePeriod(period, tz);
    const form = (allDevices ? linkRangeSchema : reportFormSchema).safeParse({
      deviceIds: deviceIds.map(Number),
      groupIds: groupIds.map(Number),
      from: range?.from ?? '',
      to: range?.to ?? '',
    });
    if (!form.success) {
      const issue = form.error.issues[0]?.message ?? '';
      setError(t(issue.startsWith('form.') ? issue : 'period.invalid'));
      return;
    }
    const f = form.data;
    setLoading(true);
    try {
      const qs = buildReportQuery({ ...f, types });
      const rows = await api.get<unknown>(`/reports/${REPORT_TYPE[kind]}?${qs}`);
      if (!Array.isArray(rows)) {
        setError(t('common:route.invalidResponse'));
        setLoaded(null);
        return;
      }
      setLoaded({ kind, rows: rows as ReportRow[], from: f.from, to: f.to, query: qs });
      setPage(1);
      setSelected(null);
      overlay.current?.clear();
    } catch (err) {
      setError(
        err instanceof HttpError && err.status === 404
          ? t('common:route.noData')
          : `${t('error')}${serverDetail(err)}`,
      );
      setLoaded(null);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (link) void run();
    // only once, for the link the page opened with
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const open = (row: ReportRow, index: number) => {
    setSelected(index);
    if (overlay.current) void drawReportRow(overlay.current, kind, row);
  };

  const shown = loaded && loaded.kind === kind ? paginate(loaded.rows, page, limit) : null;

  return (
    <Stack gap="sm" data-testid={`report-view-${kind}`}>
      <DeviceGroupSelect
        devices={{
          label: t('form.devices'),
          value: deviceIds,
          onChange: setDeviceIds,
          testId: 'report-devices',
        }}
        groups={{ label: t('form.groups'), value: groupIds, onChange: setGroupIds, testId: 'report-groups' }}
      />
      {allDevices && (
        <Text size="sm" c="dimmed" data-testid="report-all-devices">
          {t('form.allDevices')}
        </Text>
      )}
      <PeriodPicker value={period} onChange={setPeriod} testId="report-period" />
      {types.length > 0 && (
        <Group gap={4} data-testid="report-types">
          <Text size="sm">{t('form.onlyTypes')}</Text>
          {types.map((type) => (
            <Badge key={type} variant="light">
              {traccarName('events', type, i18n.language)}
            </Badge>
          ))}
          <CloseButton size="sm" aria-label={t('form.allTypes')} onClick={() => setTypes([])} />
        </Group>
      )}
      <Group gap="xs">
        <Button
          leftSection={<IconSearch size={16} />}
          onClick={() => void run()}
          loading={loading}
          data-testid="report-run"
        >
          {t('form.show')}
        </Button>
        <ReportExport loaded={loaded} columns={columns} disabled={!shown || shown.total === 0} />
      </Group>
      {error && (
        <Alert color="red" data-testid="report-error">
          {error}
        </Alert>
      )}
      {shown && shown.total === 0 && (
        <Alert color="yellow" data-testid="report-empty">
          {t('common:route.noData')}
        </Alert>
      )}
      {shown && shown.total > 0 && (
        <>
          <Text size="sm" c="dimmed" data-testid="report-total" data-total={shown.total}>
            {t('total', { count: shown.total })}
          </Text>
          <ReportTable
            shown={shown}
            columns={columns}
            selected={selected}
            onOpen={open}
            onPage={setPage}
            onLimit={(v) => {
              setLimit(v);
              setPage(1);
            }}
          />
        </>
      )}
    </Stack>
  );
}
