// "Relatórios agendados" (issue #28; Traccar's scheduled reports, docs/history-reports.md): the list of the
// caller's scheduled reports with a search, the create/edit form (ScheduledReportForm) and delete with a
// confirmation. The server runs each one when its calendar's period ends and mails it (live/reports/scheduled.ts).
// Read-only users see the list only (mayWrite); the server's refusals are shown as it words them.
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  canDeleteById,
  emptyScheduledReportForm,
  mayWrite,
  scheduledReportToForm,
  type ScheduledReport,
  type ScheduledReportFormValues,
  type ScheduledReportLinks,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverDetail } from '../../api/http.ts';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { InlineDeleteConfirm } from '../../components/InlineDeleteConfirm.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { useSession } from '../../stores/session.ts';
import { ScheduledReportForm } from './ScheduledReportForm.tsx';
import { ScheduledTable } from './ScheduledTable.tsx';
import { applyScheduledLinks, fetchScheduledLinks, scheduledLinksKey } from './scheduledApi.ts';

export function ScheduledReports({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('reports');
  const qc = useQueryClient();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const writable = mayWrite(user, server);
  const list = useResourceList('reports');
  const calendars = useResourceList('calendars');
  const save = useSaveResource('reports');
  const remove = useDeleteResource('reports');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{
    values: ScheduledReportFormValues;
    links: ScheduledReportLinks;
  } | null>(null);
  const [opening, setOpening] = useState(false);
  const [linking, setLinking] = useState(false);
  const [deleting, setDeleting] = useState<ScheduledReport | null>(null);

  const typeLabel = (type: string) => t(`scheduled.types.${type}`, { defaultValue: type });
  const calendarName = (id: number) => calendars.data?.find((c) => c.id === id)?.name ?? '';
  const rows = useMemo(() => {
    const q = search.trim().toLocaleLowerCase();
    return (list.data ?? []).filter(
      (r) =>
        !q ||
        [r.description ?? '', typeLabel(r.type), calendarName(r.calendarId)].some((s) =>
          s.toLocaleLowerCase().includes(q),
        ),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data, calendars.data, search, t]);

  const fail = (key: string, err: unknown) => {
    console.warn('scheduled report', key, err);
    const detail = serverDetail(err);
    notifications.show({ color: 'red', message: `${t(`scheduled.${key}`)}${detail}` });
  };

  const openEdit = async (r: ScheduledReport) => {
    setOpening(true);
    try {
      const links = await qc.fetchQuery({
        queryKey: scheduledLinksKey(r.id),
        queryFn: () => fetchScheduledLinks(r.id),
        staleTime: 0,
      });
      setEditing({ values: scheduledReportToForm(r, links), links });
    } catch (err) {
      fail('loadError', err);
    } finally {
      setOpening(false);
    }
  };

  const onSave = async (report: ScheduledReport, links: ScheduledReportLinks) => {
    if (!editing) return;
    let saved: ScheduledReport;
    try {
      saved = await save.mutateAsync(report);
    } catch (err) {
      fail('saveError', err);
      return;
    }
    setLinking(true);
    try {
      // a new report is already linked to its creator: start from what the server holds
      const before = report.id > 0 ? editing.links : await fetchScheduledLinks(saved.id);
      await applyScheduledLinks(saved.id, before, links);
      notifications.show({ color: 'green', message: t('scheduled.saved') });
      setEditing(null);
    } catch (err) {
      fail('linkError', err);
    } finally {
      setLinking(false);
      void qc.invalidateQueries({ queryKey: scheduledLinksKey(saved.id) });
    }
  };

  const confirmDelete = async () => {
    if (!deleting || !canDeleteById(deleting.id)) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('scheduled.deleted') });
    } catch (err) {
      fail('deleteError', err);
    }
    setDeleting(null);
  };

  const title = editing
    ? editing.values.id > 0
      ? t('scheduled.editTitle')
      : t('scheduled.addTitle')
    : t('scheduled.title');

  return (
    <Modal opened onClose={onClose} size={editing ? 560 : 760} title={title} data-testid="scheduled-dialog">
      {editing ? (
        <ScheduledReportForm
          initial={editing.values}
          saving={save.isPending || linking}
          onCancel={() => setEditing(null)}
          onSave={(report, links) => void onSave(report, links)}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('scheduled.description')}
          </Text>
          <Group justify="space-between" wrap="wrap">
            <SearchInput
              size="sm"
              label={t('scheduled.search')}
              value={search}
              onSearch={setSearch}
              style={{ flex: '1 1 200px' }}
              testId="scheduled-search"
            />
            {writable && (
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => {
                  const empty = emptyScheduledReportForm(user?.id);
                  setEditing({ values: empty, links: empty });
                }}
                data-testid="scheduled-add"
              >
                {t('scheduled.add')}
              </Button>
            )}
          </Group>
          {list.isError && <Alert color="red">{t('scheduled.loadError')}</Alert>}
          {list.data && rows.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="scheduled-empty">
              {t('scheduled.empty')}
            </Text>
          )}
          {rows.length > 0 && (
            <ScheduledTable
              rows={rows}
              writable={writable}
              opening={opening}
              typeLabel={typeLabel}
              calendarName={calendarName}
              onEdit={(r) => void openEdit(r)}
              onDelete={setDeleting}
            />
          )}
          {deleting && (
            <InlineDeleteConfirm
              title={t('scheduled.deleteTitle')}
              question={t('scheduled.deleteQuestion', {
                name: deleting.description || typeLabel(deleting.type),
              })}
              cancelLabel={t('scheduled.cancel')}
              deleteLabel={t('scheduled.delete')}
              onCancel={() => setDeleting(null)}
              onConfirm={() => void confirmDelete()}
              loading={remove.isPending}
              testId="scheduled-delete"
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}
