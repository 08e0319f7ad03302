// The notification rule manager (SPEC §2 /notifications and the `notifications` / `events` dialogs): the caller's
// rules with the type translated, channels as badges, colour swatch and the "all devices" flag (the events variant
// lists the device-bound rules with their calendar), a search, and create / edit / delete (confirmed) when the
// permission bits allow and the account is not read-only (SPEC §6). The list, search and delete are the catalogue
// scaffold (components/Catalogue*); the rule form with its sections and test-send is RuleForm.
import { Alert, Badge, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconBellRinging,
  IconBrandTelegram,
  IconCheck,
  IconDevices,
  IconMail,
  IconMessage,
  IconTerminal2,
  IconWorld,
  IconX,
} from '@tabler/icons-react';
import {
  emptyRuleForm,
  foldText,
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
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceList } from '../../api/resources.ts';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogueRights, useReadonly } from '../../components/useCan.ts';
import { useCatalogue } from '../../components/useCatalogue.ts';
import { useSession } from '../../stores/session.ts';
import { linkedDevices } from './links.ts';
import { RuleForm } from './RuleForm.tsx';
import { Swatch } from './RuleFormSections.tsx';
import { errorText } from './useRuleForm.ts';

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
  const ns = useSession((s) => s.ns);
  const readonly = useReadonly();
  const deleteRights = useCatalogueRights(variant === 'events' ? 'events' : 'notifications');
  const rights = { ...useCatalogueRights('notifications'), delete: deleteRights.delete };
  const c = useCatalogue<'notifications', NotificationRuleForm>({
    resource: 'notifications',
    ns: 'notifications',
    area: 'notifications',
    rights,
    deleteError: (err, t) => t('deleteError', { error: errorText(err) }),
  });
  const { t } = c;
  const { i18n } = useTranslation();
  const calendars = useResourceList('calendars', undefined, { enabled: variant === 'events' });
  const devices = useResourceList('devices', undefined, { enabled: variant === 'events' });

  const typeName = (type: string) => traccarName('events', type, i18n.language);
  const alarmName = (a: string) => traccarName('alarms', a, i18n.language);
  const channelName = (ch: string) => t(`channels.${ch}`, { defaultValue: ch });
  const calendarName = (id: number) => calendars.data?.find((x) => x.id === id)?.name ?? `#${id}`;

  const filterRows = (query: string) => {
    const q = foldText(query.trim());
    return c.items
      .filter((r) => variant === 'notifications' || !r.always)
      .filter((r) => {
        if (!q) return true;
        const text = [
          typeName(r.type),
          r.type,
          r.description ?? '',
          ...parseNotificators(r.notificators).map(channelName),
          ...parseAlarms(r.attributes?.alarms).map(alarmName),
        ].join(' ');
        return foldText(text).includes(q);
      });
  };

  const loadForm = async (rule: Notification): Promise<NotificationRuleForm | null> => {
    if (variant === 'notifications') return ruleToForm(rule, ns);
    try {
      const all = devices.data ?? [];
      const candidates = [
        ...ruleDeviceHint(rule.attributes, ns),
        ...(all.length <= SCAN_ALL_UP_TO ? all.map((d) => d.id) : []),
      ];
      // the form's devices are the rule's links when it opened: saving links and unlinks the difference
      return ruleToForm(rule, ns, await linkedDevices(rule.id, candidates));
    } catch (e) {
      notifications.show({ color: 'red', message: t('linksError', { error: errorText(e) }) });
      return null;
    }
  };

  const columns: DataColumn<Notification>[] = [
    {
      key: 'type',
      header: t('columns.type'),
      // under the type, dimmed: its alarms and the description, when there are any
      cell: (r) => (
        <>
          <Text size="sm" fw={500}>
            {typeName(r.type)}
          </Text>
          {[parseAlarms(r.attributes?.alarms).map(alarmName).join(', '), r.description].map(
            (line, i) =>
              line && (
                <Text key={i} size="xs" c="dimmed">
                  {line}
                </Text>
              ),
          )}
        </>
      ),
    },
    {
      key: 'channels',
      header: t('columns.channels'),
      cell: (r) => (
        <Group gap={4} component="span">
          {parseNotificators(r.notificators).map((ch) => (
            <Badge
              key={ch}
              size="sm"
              variant="light"
              tt="none"
              style={{ minWidth: 'max-content' }}
              leftSection={CHANNEL_ICONS[ch]}
              data-testid="rule-channel"
            >
              {channelName(ch)}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'color',
      header: t('columns.color'),
      cell: (r) => {
        const { color } = resolveNotificationStyle(r.attributes, ns);
        const label = t(`colors.${color}`);
        return (
          <Swatch
            color={color}
            size={18}
            data-testid="rule-swatch"
            role="img"
            data-color={color}
            title={label}
            aria-label={label}
          />
        );
      },
    },
    variant === 'events'
      ? {
          key: 'calendar',
          header: t('columns.calendar'),
          cell: (r) => (r.calendarId > 0 ? calendarName(r.calendarId) : '—'),
        }
      : {
          key: 'always',
          cardHeader: t('columns.allDevices'),
          header: (
            <span role="img" title={t('columns.allDevices')} aria-label={t('columns.allDevices')}>
              <IconDevices size={16} style={{ verticalAlign: 'middle' }} />
            </span>
          ),
          cell: (r) =>
            r.always ? (
              <IconCheck size={16} aria-label={t('yes')} data-testid="rule-always-yes" />
            ) : (
              <IconX size={16} aria-label={t('no')} data-testid="rule-always-no" />
            ),
        },
  ];

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
      <CatalogueList
        c={c}
        prefix="rule"
        plural="rules"
        columns={columns}
        filterRows={filterRows}
        nameOf={(r) => r.description || typeName(r.type)}
        newForm={() => emptyRuleForm(variant)}
        toForm={(r) => ruleToForm(r, ns)}
        loadForm={loadForm}
      />
      {c.editing && <RuleForm variant={variant} initial={c.editing} onClose={() => c.setEditing(null)} />}
    </Stack>
  );
}

/** /notifications (SPEC §2, always in the side menu): the rule manager as a page. */
export const NotificationsPage = () => <RuleManager variant="notifications" />;
