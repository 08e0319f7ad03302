// "Relatórios agendados" (issue #28; Traccar's scheduled reports, docs/history-reports.md): the list of the
// caller's scheduled reports with a search, the create/edit form (ScheduledReportForm) and delete with a
// confirmation — the catalogue scaffold (components/Catalogue*) with the report's links read before an edit and
// written after a save. The server runs each one when its calendar's period ends and mails it
// (live/reports/scheduled.ts). Read-only users see the list only (mayWrite); the server's refusals are shown as it
// words them.
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  emptyScheduledReportForm,
  mayWrite,
  scheduledReportToForm,
  type ScheduledReport,
  type ScheduledReportFormValues,
  type ScheduledReportLinks,
} from '@rastro/domain';
import { useState } from 'react';
import { serverDetail } from '../../api/http.ts';
import { useResourceList, useSaveResource } from '../../api/resources.ts';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogue } from '../../components/useCatalogue.ts';
import { useSession } from '../../stores/session.ts';
import { ScheduledReportForm } from './ScheduledReportForm.tsx';
import { applyScheduledLinks, fetchScheduledLinks, scheduledLinksKey } from './scheduledApi.ts';

const NO_LINKS: ScheduledReportLinks = { deviceIds: [], groupIds: [], userIds: [] };

export function ScheduledReports({ onClose }: { onClose(): void }) {
  const qc = useQueryClient();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const writable = mayWrite(user, server);
  const c = useCatalogue<'reports', ScheduledReportFormValues>({
    resource: 'reports',
    ns: 'reports',
    keyPrefix: 'scheduled',
    area: 'reports',
    rights: { create: writable, edit: writable, delete: writable },
  });
  const { t, editing } = c;
  const calendars = useResourceList('calendars');
  const save = useSaveResource('reports');
  // the links the edited report had when it was opened
  const [linksBefore, setLinksBefore] = useState(NO_LINKS);
  const [linking, setLinking] = useState(false);

  const typeLabel = (type: string) => t(`types.${type}`, { defaultValue: type });
  const calendarName = (id: number) => calendars.data?.find((x) => x.id === id)?.name ?? '';

  const fail = (key: string, err: unknown) => {
    console.warn('scheduled report', key, err);
    notifications.show({ color: 'red', message: `${t(key)}${serverDetail(err)}` });
  };

  const loadForm = async (r: ScheduledReport) => {
    try {
      const links = await qc.fetchQuery({
        queryKey: scheduledLinksKey(r.id),
        queryFn: () => fetchScheduledLinks(r.id),
        staleTime: 0,
      });
      setLinksBefore(links);
      return scheduledReportToForm(r, links);
    } catch (err) {
      fail('loadError', err);
      return null;
    }
  };

  const onSave = async (report: ScheduledReport, links: ScheduledReportLinks) => {
    const saved = await save.mutateAsync(report).catch((err: unknown) => fail('saveError', err));
    if (!saved) return;
    setLinking(true);
    try {
      // a new report is already linked to its creator: start from what the server holds
      const before = report.id > 0 ? linksBefore : await fetchScheduledLinks(saved.id);
      await applyScheduledLinks(saved.id, before, links);
      notifications.show({ color: 'green', message: t('saved') });
      c.setEditing(null);
    } catch (err) {
      fail('linkError', err);
    } finally {
      setLinking(false);
      void qc.invalidateQueries({ queryKey: scheduledLinksKey(saved.id) });
    }
  };

  const columns: DataColumn<ScheduledReport>[] = [
    { key: 'description', header: t('fields.description'), cell: (r) => r.description || typeLabel(r.type) },
    { key: 'type', header: t('fields.type'), cell: (r) => typeLabel(r.type) },
    { key: 'calendar', header: t('fields.calendar'), cell: (r) => calendarName(r.calendarId) },
  ];

  const title = editing ? (editing.id > 0 ? t('editTitle') : t('addTitle')) : t('title');
  return (
    <Modal opened onClose={onClose} size={editing ? 560 : 760} title={title} data-testid="scheduled-dialog">
      {editing ? (
        <ScheduledReportForm
          initial={editing}
          saving={save.isPending || linking}
          onCancel={() => c.setEditing(null)}
          onSave={(report, links) => void onSave(report, links)}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('description')}
          </Text>
          <CatalogueList
            c={c}
            prefix="scheduled"
            plural="scheduled"
            columns={columns}
            searchIn={(r) => [r.description ?? '', typeLabel(r.type), calendarName(r.calendarId)]}
            nameOf={(r) => r.description || typeLabel(r.type)}
            newForm={() => emptyScheduledReportForm(user?.id)}
            toForm={(r) => scheduledReportToForm(r, NO_LINKS)}
            loadForm={loadForm}
            rowAttrs={(r) => ({ 'data-report-id': r.id })}
          />
        </Stack>
      )}
    </Modal>
  );
}
