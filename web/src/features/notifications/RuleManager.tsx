// The notification rule manager (SPEC §2 /notifications and the `notifications` / `events` dialogs): the caller's
// rules with the type translated, channels as badges, colour swatch and the "all devices" flag (the events variant
// lists the device-bound rules with their calendar), a search, and create / edit / delete (confirmed) when the
// permission bits allow and the account is not read-only (SPEC §6).
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconBellRinging,
  IconBrandTelegram,
  IconCheck,
  IconDevices,
  IconEdit,
  IconMail,
  IconMessage,
  IconPlus,
  IconSearch,
  IconTerminal2,
  IconTrash,
  IconWorld,
  IconX,
} from '@tabler/icons-react';
import {
  NOTIFICATION_COLOR_STYLES,
  can,
  emptyRuleForm,
  isReadonly,
  parseAlarms,
  parseNotificators,
  resolveNotificationStyle,
  ruleDeviceHint,
  ruleToForm,
  traccarName,
  type Notification,
  type NotificationRuleForm,
  type RuleVariant,
} from '@rastro/domain';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteResource, useResourceList } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { linkedDevices } from './links.ts';
import { errorText, RuleForm } from './RuleForm.tsx';

const CHANNEL_ICONS: Record<string, ReactNode> = {
  web: <IconWorld size={12} />,
  firebase: <IconBellRinging size={12} />,
  telegram: <IconBrandTelegram size={12} />,
  sms: <IconMessage size={12} />,
  mail: <IconMail size={12} />,
  command: <IconTerminal2 size={12} />,
};

/** Devices checked for links when a rule is edited without a remembered device list (small fleets). */
const SCAN_ALL_UP_TO = 50;

export function RuleManager({ variant }: { variant: RuleVariant }) {
  const { t, i18n } = useTranslation('notifications');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const ctx = { user, server, isPlus, ns };
  const readonly = isReadonly(user, server);
  const canCreate = !readonly && can(ctx, 'notifications', 'create');
  const canEdit = !readonly && can(ctx, 'notifications', 'edit');
  const canDelete = !readonly && can(ctx, variant === 'events' ? 'events' : 'notifications', 'delete');

  const list = useResourceList('notifications');
  const calendars = useResourceList('calendars', undefined, { enabled: variant === 'events' });
  const devices = useResourceList('devices', undefined, { enabled: variant === 'events' });
  const remove = useDeleteResource('notifications');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<{ form: NotificationRuleForm; linked: number[] } | null>(null);
  const [opening, setOpening] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Notification | null>(null);

  const typeName = (type: string) => traccarName('events', type, i18n.language);
  const alarmName = (a: string) => traccarName('alarms', a, i18n.language);
  const channelName = (c: string) => t(`channels.${c}`, { defaultValue: c });
  const calendarName = (id: number) => calendars.data?.find((c) => c.id === id)?.name ?? `#${id}`;

  const q = query.trim().toLowerCase();
  const rows = (list.data ?? [])
    .filter((r) => variant === 'notifications' || !r.always)
    .filter((r) => {
      if (!q) return true;
      const text = [
        typeName(r.type),
        r.type,
        r.description ?? '',
        ...parseNotificators(r.notificators).map(channelName),
        ...parseAlarms(r.attributes?.alarms).map(alarmName),
      ]
        .join(' ')
        .toLowerCase();
      return text.includes(q);
    });

  const openEdit = async (rule: Notification) => {
    if (variant === 'notifications') {
      setEditing({ form: ruleToForm(rule, ns), linked: [] });
      return;
    }
    setOpening(rule.id);
    try {
      const all = devices.data ?? [];
      const candidates = [
        ...ruleDeviceHint(rule.attributes, ns),
        ...(all.length <= SCAN_ALL_UP_TO ? all.map((d) => d.id) : []),
      ];
      const linked = await linkedDevices(rule.id, candidates);
      setEditing({ form: ruleToForm(rule, ns, linked), linked });
    } catch (e) {
      notifications.show({ color: 'red', message: t('linksError', { error: errorText(e) }) });
    } finally {
      setOpening(null);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (e) {
      console.warn('notification rule not deleted', e);
      notifications.show({ color: 'red', message: t('deleteError', { error: errorText(e) }) });
    }
    setDeleting(null);
  };

  return (
    <Stack gap="sm" data-testid={`rules-${variant}`}>
      <Text size="sm" c="dimmed">
        {variant === 'events' ? t('eventsDescription') : t('description')}
      </Text>
      {readonly && (
        <Alert color="gray" data-testid="rules-readonly">
          {t('readonly')}
        </Alert>
      )}
      <Group justify="space-between" wrap="nowrap">
        <TextInput
          size="xs"
          style={{ flex: 1 }}
          leftSection={<IconSearch size={14} />}
          placeholder={t('search')}
          aria-label={t('search')}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          data-testid="rules-search"
        />
        {canCreate && (
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setEditing({ form: emptyRuleForm(variant), linked: [] })}
            data-testid="rule-add"
          >
            {t('add')}
          </Button>
        )}
      </Group>
      {list.isPending && <Loader size="sm" />}
      {list.isError && <Alert color="red">{t('loadError')}</Alert>}
      {list.data && rows.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="rules-empty">
          {query.trim() ? t('noMatch') : t('empty')}
        </Text>
      )}
      {rows.length > 0 && (
        <Table striped fz="sm" data-testid="rules-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('columns.type')}</Table.Th>
              <Table.Th>{t('columns.channels')}</Table.Th>
              <Table.Th>{t('columns.color')}</Table.Th>
              <Table.Th>
                {variant === 'events' ? (
                  t('columns.calendar')
                ) : (
                  <span role="img" title={t('columns.allDevices')} aria-label={t('columns.allDevices')}>
                    <IconDevices size={16} style={{ verticalAlign: 'middle' }} />
                  </span>
                )}
              </Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const style = resolveNotificationStyle(r.attributes, ns);
              const colors = NOTIFICATION_COLOR_STYLES[style.color];
              const alarms = parseAlarms(r.attributes?.alarms);
              return (
                <Table.Tr key={r.id} data-testid="rule-row" data-rule-id={r.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {typeName(r.type)}
                    </Text>
                    {alarms.length > 0 && (
                      <Text size="xs" c="dimmed">
                        {alarms.map(alarmName).join(', ')}
                      </Text>
                    )}
                    {r.description && (
                      <Text size="xs" c="dimmed">
                        {r.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {parseNotificators(r.notificators).map((c) => (
                        <Badge
                          key={c}
                          size="sm"
                          variant="light"
                          tt="none"
                          style={{ minWidth: 'max-content' }}
                          leftSection={CHANNEL_ICONS[c]}
                          data-testid="rule-channel"
                        >
                          {channelName(c)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <span
                      data-testid="rule-swatch"
                      role="img"
                      data-color={style.color}
                      title={t(`colors.${style.color}`)}
                      aria-label={t(`colors.${style.color}`)}
                      style={{
                        display: 'inline-block',
                        width: 18,
                        height: 18,
                        borderRadius: 4,
                        background: colors.bg,
                        border: `1px solid ${colors.fg}`,
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    {variant === 'events' ? (
                      r.calendarId > 0 ? (
                        calendarName(r.calendarId)
                      ) : (
                        '—'
                      )
                    ) : r.always ? (
                      <IconCheck size={16} aria-label={t('yes')} data-testid="rule-always-yes" />
                    ) : (
                      <IconX size={16} aria-label={t('no')} data-testid="rule-always-no" />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {canEdit && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('edit')}
                          loading={opening === r.id}
                          onClick={() => void openEdit(r)}
                          data-testid="rule-edit"
                        >
                          <IconEdit size={16} />
                        </ActionIcon>
                      )}
                      {canDelete && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('delete')}
                          onClick={() => setDeleting(r)}
                          data-testid="rule-delete"
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}

      {editing && (
        <RuleForm
          variant={variant}
          initial={editing.form}
          linkedBefore={editing.linked}
          onClose={() => setEditing(null)}
        />
      )}

      {deleting && (
        <Modal
          opened
          onClose={() => setDeleting(null)}
          title={t('deleteTitle')}
          data-testid="rule-delete-confirm"
        >
          <Stack>
            <Text size="sm">
              {t('deleteQuestion', { name: deleting.description || typeName(deleting.type) })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('cancel')}
              </Button>
              <Button
                color="red"
                onClick={() => void confirmDelete()}
                loading={remove.isPending}
                data-testid="rule-delete-yes"
              >
                {t('delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
