// One user on the users page (issue #29: cards at every width, so on a 390 px phone and in the 420 px desktop panel
// nothing is wider than the screen): name and role badges (read in full, wrapping), e-mail, expiry, and a row of
// actions that wraps instead of being cut.
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import {
  IconDeviceMobile,
  IconEdit,
  IconLock,
  IconLockOpen,
  IconLogin2,
  IconMessage,
  IconTrash,
} from '@tabler/icons-react';
import { formatDate, userAccountState, type User } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { HintIcon } from '../../components/floating.tsx';
import { intlLocale } from '../../i18n/index.ts';
import { AccountStateBadge } from './UserBillingTab.tsx';
import type { UserActions, UserRights } from './useUsersList.ts';

interface CardProps {
  user: User;
  rights: UserRights;
  actions: UserActions;
}

const badgeStyle = { flexShrink: 0, maxWidth: 'none' } as const;

/** The role badges: which users carry each, its colour and text key (badges.*). */
const BADGES: Array<[string, string, (u: User) => boolean]> = [
  ['admin', 'red', (u) => u.administrator],
  ['manager', 'violet', (u) => !u.administrator && u.userLimit !== 0],
  ['readonly', 'gray', (u) => u.readonly],
  ['disabled', 'dark', (u) => u.disabled],
];

function UserBadges({ user: u, rights }: { user: User; rights: UserRights }) {
  const { t } = useTranslation('users');
  return (
    <Group gap={4}>
      {BADGES.filter(([, , has]) => has(u)).map(([key, color]) => (
        <Badge key={key} size="xs" color={color} style={badgeStyle} data-testid={`badge-${key}`}>
          {t(`badges.${key}`)}
        </Badge>
      ))}
      {rights.billingOn && userAccountState(u.attributes, rights.ns).state !== 'active' && (
        <AccountStateBadge attributes={u.attributes} ns={rights.ns} />
      )}
    </Group>
  );
}

/** The row's buttons in their order (each the action of that name): test id, label key, icon, colour. */
const BUTTONS = {
  message: ['user-message', 'message.button', IconMessage],
  link: ['user-link', 'link.button', IconDeviceMobile],
  suspend: ['user-suspend', 'billing.suspend.button', IconLock, 'orange'],
  reactivate: ['user-reactivate', 'billing.reactivate.button', IconLockOpen, 'green'],
  loginAs: ['user-login-as', 'loginAs.button', IconLogin2],
  edit: ['user-edit-open', 'edit', IconEdit],
  askDelete: ['user-delete', 'delete', IconTrash, 'red'],
} as const;

function UserRowActions({ user: u, rights, actions }: Pick<CardProps, 'user' | 'rights' | 'actions'>) {
  const { t } = useTranslation('users');
  const canSuspend = rights.billingOn && !u.administrator && rights.edit && !rights.editDenial(u);
  const active = userAccountState(u.attributes, rights.ns).state === 'active';
  const shown: Record<keyof typeof BUTTONS, boolean> = {
    message: rights.manages && u.id !== rights.actor?.id,
    link: rights.edit,
    suspend: canSuspend && active,
    reactivate: canSuspend && !active,
    loginAs: rights.canLoginAs(u),
    edit: !rights.editDenial(u),
    askDelete: rights.delete && !rights.deleteDenial(u),
  };
  return (
    <Group gap={4} justify="flex-end" data-testid="user-actions">
      {(Object.keys(BUTTONS) as Array<keyof typeof BUTTONS>)
        .filter((k) => shown[k])
        .map((k) => {
          const [testId, label, Icon, color] = BUTTONS[k];
          return (
            <HintIcon
              key={k}
              label={t(label)}
              color={color}
              onClick={() => actions[k](u)}
              data-testid={testId}
            >
              <Icon size={16} />
            </HintIcon>
          );
        })}
    </Group>
  );
}

export function UserCard({ user: u, rights, actions }: CardProps) {
  const { t } = useTranslation('users');
  const expired = !!u.expirationTime && Date.parse(u.expirationTime) < Date.now();
  return (
    <Paper
      withBorder
      p="xs"
      role="listitem"
      data-testid="user-row"
      data-user-id={u.id}
      data-user-email={u.email}
    >
      <Group justify="space-between" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
          <Group gap={6}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {u.name}
            </Text>
            <UserBadges user={u} rights={rights} />
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="user-row-email">
            {u.email}
          </Text>
          {u.expirationTime && (
            <Text size="xs" c={expired ? 'red' : 'dimmed'} data-testid="user-expiry">
              {t('fields.expirationTime')}: {formatDate(u.expirationTime, intlLocale())}
              {expired ? ` (${t('badges.expired')})` : ''}
            </Text>
          )}
        </Stack>
        <UserRowActions user={u} rights={rights} actions={actions} />
      </Group>
    </Paper>
  );
}
