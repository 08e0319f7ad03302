// The shared links the user manages (GET /{ns}/shares), optionally of one device: what is shared, by whom, the
// SPEC §9 countdown to expiry (or "Link expired"), copy the link, change its expiry (PUT) and revoke it
// (DELETE: the link stops working at once). Edit and revoke follow the share.edit / share.delete bits; the server
// checks them again.
import { ActionIcon, Badge, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconEdit, IconTrash } from '@tabler/icons-react';
import {
  can,
  countdownKey,
  countdownTo,
  shareExpiryIssue,
  shareLink,
  sortShares,
  type ShareRecord,
} from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { HintIcon } from '../../components/floating.tsx';
import { InlineDeleteConfirm } from '../../components/InlineDeleteConfirm.tsx';
import { useViewer } from '../../components/useCan.ts';
import { useNow } from '../../components/useNow.ts';
import { DateField, toLocalInput } from '../../components/DateField.tsx';
import { fromLocalInput } from './expiryInput.ts';
import { RequestError } from '../../components/RequestError.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';

export function ShareList({ deviceId }: { deviceId?: number }) {
  const { t } = useTranslation('shares');
  const { t: tc } = useTranslation('common');
  const ctx = useViewer();
  const list = useResourceList('shares');
  const save = useSaveResource('shares');
  const remove = useDeleteResource('shares');
  // every second: the countdowns
  const now = useNow(1000);
  const [editing, setEditing] = useState<{ id: number; value: string } | null>(null);
  const [revoking, setRevoking] = useState<ShareRecord | null>(null);

  const shares = sortShares(
    (list.data ?? []).filter((s) => deviceId === undefined || s.deviceId === deviceId),
    now,
  );
  const label = (s: ShareRecord) => (s.groupId ? t('group', { name: s.name }) : s.name);

  const editIssue = editing ? shareExpiryIssue(fromLocalInput(editing.value) ?? 'invalid', Date.now()) : null;

  // after a change the form (or the question) closes and a green note says what was done; a failure is one red
  // note, the last one's
  const done = (close: () => void, message: string) => () => {
    close();
    notifications.show({ color: 'green', message });
  };
  const saveExpiry = () => {
    const share = editing && !editIssue ? shares.find((s) => s.id === editing.id) : undefined;
    if (!editing || !share) return;
    remove.reset();
    save.mutate(
      { ...share, expirationTime: fromLocalInput(editing.value)! },
      { onSuccess: done(() => setEditing(null), t('saved')) },
    );
  };
  const revoke = () => {
    if (!revoking) return;
    save.reset();
    remove.mutate(revoking.id, { onSuccess: done(() => setRevoking(null), t('revoked')) });
  };

  const remaining = (s: ShareRecord) => {
    const left = countdownTo(s.expirationTime, now);
    return left && !left.expired ? (
      <Tooltip label={new Date(s.expirationTime).toLocaleString()}>
        <Badge variant="light" data-testid={`share-remaining-${s.id}`}>
          {tc(countdownKey(left), { count: left.value })}
        </Badge>
      </Tooltip>
    ) : (
      <Badge color="gray" data-testid={`share-remaining-${s.id}`}>
        {tc('share.expired')}
      </Badge>
    );
  };
  const actions = (s: ShareRecord) => (
    <Group gap={4} wrap="nowrap">
      <CopyButton value={shareLink(window.location.origin, s.token)}>
        {({ copied, copy }) => (
          <HintIcon
            label={copied ? t('copied') : t('copy')}
            aria-label={t('copy')}
            onClick={copy}
            data-testid={`share-copy-${s.id}`}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </HintIcon>
        )}
      </CopyButton>
      {can(ctx, 'share', 'edit') && (
        <ActionIcon
          variant="subtle"
          aria-label={t('edit', { name: label(s) })}
          onClick={() =>
            setEditing({
              id: s.id,
              value: toLocalInput(new Date(Math.max(Date.parse(s.expirationTime), Date.now()))),
            })
          }
          data-testid={`share-edit-${s.id}`}
        >
          <IconEdit size={16} />
        </ActionIcon>
      )}
      {can(ctx, 'share', 'delete') && (
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('revoke', { name: label(s) })}
          onClick={() => setRevoking(s)}
          data-testid={`share-revoke-${s.id}`}
        >
          <IconTrash size={16} />
        </ActionIcon>
      )}
    </Group>
  );
  const columns: DataColumn<ShareRecord>[] = [
    ...(deviceId === undefined ? [{ key: 'object', header: t('columns.object'), cell: label }] : []),
    { key: 'creator', header: t('columns.creator'), cell: (s) => s.creatorName },
    { key: 'remaining', header: t('columns.remaining'), cell: remaining },
    { key: 'actions', header: t('columns.actions'), cell: actions },
  ];

  if (list.isError)
    return <RequestError error={list.error} fallback={t('loadError')} testId="shares-load-error" />;

  return (
    <Stack gap="xs" data-testid="share-list">
      <RequestError
        error={save.error ?? remove.error}
        fallback={t('error')}
        testId="shares-error"
        withCloseButton
        onClose={() => {
          save.reset();
          remove.reset();
        }}
      />
      {list.isSuccess && shares.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="shares-empty">
          {t('empty')}
        </Text>
      )}
      {shares.length > 0 && (
        <DataTable
          striped
          highlightOnHover
          scrollMinWidth={420}
          rows={shares}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ 'data-testid': `share-row-${s.id}` })}
          columns={columns}
        />
      )}
      {editing && (
        <Group align="flex-end" data-testid="share-edit-form">
          <DateField
            clearable
            withTime
            label={t('expiration')}
            value={editing.value}
            onChange={(value) => setEditing({ ...editing, value: value })}
            error={editIssue ? tc(editIssue) : undefined}
            data-testid="share-edit-expiration"
          />
          <SaveCancel
            cancel={t('cancel')}
            save={t('save')}
            onCancel={() => setEditing(null)}
            onSave={saveExpiry}
            loading={save.isPending}
            disabled={!!editIssue}
            saveTestId="share-edit-save"
          />
        </Group>
      )}
      {revoking && (
        <InlineDeleteConfirm
          title={t('revokeTitle')}
          question={t('revokeQuestion', { name: label(revoking) })}
          cancelLabel={t('cancel')}
          deleteLabel={t('revokeYes')}
          onCancel={() => setRevoking(null)}
          onConfirm={() => revoke()}
          loading={remove.isPending}
          testId="share-revoke"
        />
      )}
    </Stack>
  );
}
