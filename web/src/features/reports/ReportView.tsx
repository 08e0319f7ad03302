// One report (summary, trips, stops, events or route): devices and groups, a period of SPEC §9, the query of
// SPEC §7 (repeated deviceId / groupId, type allEvents, ISO from / to, daily false), a paged table (25 by default),
// values in the user's units and currency, Excel export built in the browser, and a row opens its trip, stop or
// event on the map.
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Group,
  MultiSelect,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconMail, IconSearch } from '@tabler/icons-react';
import {
  buildReportQuery,
  paginate,
  parseRoute,
  readReportLink,
  traccarName,
  type Device,
  type Group as DeviceGroup,
  type Position,
  type MessageKey,
} from '@rastro/domain';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { useSearchParams } from 'wouter';
import { z } from 'zod';
import { api, HttpError, serverDetail } from '../../api/http.ts';
import { useResourceList } from '../../api/resources.ts';
import {
  defaultPeriod,
  PeriodPicker,
  resolvePeriod,
  toLocalInput,
  type PeriodValue,
} from '../../components/PeriodPicker.tsx';
import { userTimeZone } from '../../components/timeZone.ts';
import { useRouteOverlay, type RouteMark } from '../../components/routeOverlay.ts';
import { buildXlsx, downloadBlob, fileStem, XLSX_MIME } from '../../components/xlsx.ts';
import { intlLocale } from '../../i18n/index.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import {
  columnsFor,
  excelValue,
  REPORT_TYPE,
  type ReportKind,
  type ReportRow,
  type RowByKind,
} from './columns.ts';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** The report form: at least one device or group, a valid period. */
export const reportFormSchema = z
  .object({
    deviceIds: z.array(z.number().int().positive()).max(10_000),
    groupIds: z.array(z.number().int().positive()).max(10_000),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
  })
  .refine((f) => f.deviceIds.length + f.groupIds.length > 0, {
    message: 'form.pickDevice',
    path: ['deviceIds'],
  })
  .refine((f) => Date.parse(f.from) <= Date.parse(f.to), { message: 'period.invalid', path: ['to'] });

/** A link's period without devices or groups: every device of the caller (the dashboard's unfiltered figures). */
const linkRangeSchema = z
  .object({
    deviceIds: z.array(z.number().int().positive()).max(0),
    groupIds: z.array(z.number().int().positive()).max(0),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
  })
  .refine((f) => Date.parse(f.from) <= Date.parse(f.to), { message: 'period.invalid', path: ['to'] });

type Loaded = { kind: ReportKind; rows: ReportRow[]; from: string; to: string; query: string };

export function ReportView({ kind }: { kind: ReportKind }) {
  const { t, i18n } = useTranslation('reports');
  const devices = useLive((s) => s.devices);
  const groups = useResourceList('groups');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const units = useUnits();
  const tz = useMemo(() => userTimeZone(user, server), [user, server]);
  const locale = intlLocale();
  const overlay = useRouteOverlay();

  // a link (the dashboard's figures) opens the report filled in with its exact period, and runs it
  const [search] = useSearchParams();
  const [link] = useState(() => readReportLink(search));
  const [deviceIds, setDeviceIds] = useState<string[]>(() => (link?.deviceIds ?? []).map(String));
  const [groupIds, setGroupIds] = useState<string[]>(() => (link?.groupIds ?? []).map(String));
  const [period, setPeriodValue] = useState<PeriodValue>(() =>
    link
      ? { period: 'custom', from: toLocalInput(new Date(link.from)), to: toLocalInput(new Date(link.to)) }
      : defaultPeriod('today'),
  );
  const [exact, setExact] = useState(() => (link ? { from: link.from, to: link.to } : null));
  const [types, setTypes] = useState<string[]>(() => (kind === 'events' ? (link?.types ?? []) : []));
  // until a device or group is picked, a link without any stands for all of the caller's devices
  const allDevices = !!link && deviceIds.length === 0 && groupIds.length === 0;
  const setPeriod = (v: PeriodValue) => {
    setExact(null);
    setPeriodValue(v);
  };
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [mailing, setMailing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(25);
  const [selected, setSelected] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  const timeFmt = useMemo(
    () => new Intl.DateTimeFormat(locale, { timeZone: tz, dateStyle: 'short', timeStyle: 'medium' }),
    [locale, tz],
  );
  const ctx = useMemo(() => {
    const fuelPrice = Number(server?.attributes?.fuelPrice ?? 0);
    const l100 = Number(server?.attributes?.litersx100km ?? 0);
    const currency = server?.attributes?.currency;
    return {
      units,
      locale,
      formatTime: (v: string | number) => {
        const ms = typeof v === 'number' ? v : Date.parse(v);
        return Number.isFinite(ms) ? timeFmt.format(ms) : '';
      },
      fuelPrice: Number.isFinite(fuelPrice) ? fuelPrice : 0,
      litersPer100km: Number.isFinite(l100) ? l100 : 0,
      currency: typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined,
      deviceName: (id: number) => devices[id]?.name ?? String(id),
      label: (key: MessageKey) => t(key, { ns: 'common' }),
    };
  }, [units, locale, timeFmt, server, devices, t]);
  const columns = useMemo(() => columnsFor(kind, ctx), [kind, ctx]);

  const deviceOptions = useMemo(
    () =>
      Object.values(devices)
        .sort((a: Device, b: Device) => a.name.localeCompare(b.name))
        .map((d) => ({ value: String(d.id), label: d.name })),
    [devices],
  );
  const groupOptions = useMemo(
    () => (groups.data ?? []).map((g: DeviceGroup) => ({ value: String(g.id), label: g.name })),
    [groups.data],
  );

  const run = useCallback(async () => {
    setError(null);
    const range = exact ?? resolvePeriod(period, tz);
    const form = (allDevices ? linkRangeSchema : reportFormSchema).safeParse({
      deviceIds: deviceIds.map(Number),
      groupIds: groupIds.map(Number),
      from: range?.from ?? '',
      to: range?.to ?? '',
    });
    if (!form.success) {
      setError(
        t(
          form.error.issues[0]?.message.startsWith('form.') ? form.error.issues[0].message : 'period.invalid',
        ),
      );
      return;
    }
    const f = form.data;
    setLoading(true);
    try {
      const qs = buildReportQuery({
        deviceIds: f.deviceIds,
        groupIds: f.groupIds,
        from: f.from,
        to: f.to,
        types,
      });
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
  }, [exact, period, tz, deviceIds, groupIds, types, allDevices, kind, t, overlay]);

  useEffect(() => {
    if (link) void run();
    // only once, for the link the page opened with
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Draws a row on the map: a trip's (or a summary's) positions, a stop, an event's position, a route point. */
  const open = useCallback(
    async (row: ReportRow, index: number) => {
      setSelected(index);
      const o = overlay.current;
      if (!o) return;
      const mark = (m: RouteMark) => {
        o.setRoute([], [m], false);
        o.flyTo(m.latitude, m.longitude);
      };
      if (kind === 'travels' || kind === 'resume') {
        const r = row as RowByKind['travels'] | RowByKind['resume'];
        const answer = await api
          .get<unknown>('/reports/route', { deviceId: r.deviceId, from: r.startTime, to: r.endTime })
          .catch(() => null);
        const parsed = parseRoute(answer);
        if (!parsed.ok) {
          if (kind === 'travels') {
            const trip = row as RowByKind['travels'];
            mark({ kind: 'start', latitude: trip.startLat, longitude: trip.startLon });
          }
          return;
        }
        const pts = parsed.points;
        o.setRoute(pts, [
          { kind: 'start', latitude: pts[0].latitude, longitude: pts[0].longitude },
          { kind: 'end', latitude: pts[pts.length - 1].latitude, longitude: pts[pts.length - 1].longitude },
        ]);
      } else if (kind === 'stops') {
        const s = row as RowByKind['stops'];
        mark({ kind: 'stop', latitude: s.latitude, longitude: s.longitude });
      } else if (kind === 'events') {
        const e = row as RowByKind['events'];
        if (!e.positionId) return;
        const ps = await api.get<Position[]>('/positions', { id: [e.positionId] }).catch(() => []);
        const p = Array.isArray(ps) ? ps[0] : undefined;
        if (p) mark({ kind: 'event', latitude: p.latitude, longitude: p.longitude, label: e.type });
      } else {
        const p = row as RowByKind['history'];
        mark({ kind: 'event', latitude: p.latitude, longitude: p.longitude });
      }
    },
    [kind, overlay],
  );

  const exportXlsx = async () => {
    if (!loaded) return;
    setExporting(true);
    try {
      const title = t(`kinds.${kind}.title`);
      const data = await buildXlsx([
        {
          name: title,
          columns: columns.map((c) => ({
            header: c.label,
            key: c.key,
            width: c.key.includes('ddress') ? 40 : 18,
          })),
          rows: loaded.rows.map((r) => Object.fromEntries(columns.map((c) => [c.key, excelValue(c, r)]))),
        },
      ]);
      downloadBlob(
        data,
        `${fileStem(title, loaded.from.slice(0, 10), loaded.to.slice(0, 10))}.xlsx`,
        XLSX_MIME,
      );
    } finally {
      setExporting(false);
    }
  };

  // "by e-mail": the server builds the same report as .xlsx and mails it to the user (GET /api/reports/{type}/mail)
  const canMail = !!server?.emailEnabled && !!user?.email.includes('@');
  const mail = async () => {
    if (!loaded) return;
    setMailing(true);
    try {
      await api.request('GET', `/reports/${REPORT_TYPE[loaded.kind]}/mail?${loaded.query}`);
      notifications.show({ color: 'green', message: t('form.mailed', { email: user?.email ?? '' }) });
    } catch (err) {
      const detail = serverDetail(err);
      notifications.show({ color: 'red', message: `${t('form.mailError')}${detail}` });
    } finally {
      setMailing(false);
    }
  };

  const shown = loaded && loaded.kind === kind ? paginate(loaded.rows, page, limit) : null;

  return (
    <Stack gap="sm" data-testid={`report-view-${kind}`}>
      <MultiSelect
        label={t('form.devices')}
        data={deviceOptions}
        value={deviceIds}
        onChange={setDeviceIds}
        searchable
        clearable
        data-testid="report-devices"
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label={t('form.groups')}
        data={groupOptions}
        value={groupIds}
        onChange={setGroupIds}
        searchable
        clearable
        data-testid="report-groups"
        comboboxProps={{ withinPortal: true }}
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
        <Button
          variant="default"
          leftSection={<IconFileSpreadsheet size={16} />}
          disabled={!shown || shown.total === 0}
          loading={exporting}
          onClick={() => void exportXlsx()}
          data-testid="report-excel"
        >
          {t('form.excel')}
        </Button>
        {canMail && (
          <Button
            variant="default"
            leftSection={<IconMail size={16} />}
            disabled={!shown || shown.total === 0}
            loading={mailing}
            onClick={() => void mail()}
            data-testid="report-mail"
          >
            {t('form.mail')}
          </Button>
        )}
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
          <Table.ScrollContainer minWidth={columns.length * 110}>
            <Table striped highlightOnHover withTableBorder fz="xs" data-testid="report-table">
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.key} data-key={c.key}>
                      {c.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.items.map((row, i) => {
                  const index = (shown.page - 1) * shown.limit + i;
                  return (
                    <Table.Tr
                      key={index}
                      onClick={() => void open(row, index)}
                      style={{ cursor: 'pointer' }}
                      bg={selected === index ? 'var(--mantine-color-blue-light)' : undefined}
                      data-testid="report-row"
                      data-index={index}
                    >
                      {columns.map((c) => (
                        <Table.Td key={c.key} data-key={c.key}>
                          {c.cell(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" gap="xs">
            <Pagination
              total={shown.pages}
              value={shown.page}
              onChange={setPage}
              size="sm"
              siblings={1}
              data-testid="report-pages"
            />
            <Select
              aria-label={t('pageSize')}
              w={90}
              data={PAGE_SIZES.map((s) => ({ value: String(s), label: String(s) }))}
              value={String(limit)}
              onChange={(v) => {
                if (!v) return;
                setLimit(Number(v));
                setPage(1);
              }}
              allowDeselect={false}
              data-testid="report-page-size"
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}
