// One user on the users page (issue #29: cards at every width, so on a 390 px phone and in the 420 px desktop panel
// nothing is wider than the screen): name and role badges (read in full, wrapping), e-mail, expiry, and a row of
// actions that wraps instead of being cut.
import { ActionIcon, Badge, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconDeviceMobile,
  IconEdit,
  IconLock,
  IconLockOpen,
  IconLogin2,
  IconMessage,
  IconTrash,
} from '@tabler/icons-react';
import { userAccountState, type User } from '@rastro/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountStateBadge } from './UserBillingTab.tsx';
import type { UserActions, UserRights } from './useUsersList.ts';

interface CardProps {
  user: User;
  rights: UserRights;
  actions: UserActions;
  dateFmt: Intl.DateTimeFormat;
  now: number;
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

function Action(props: {
  label: string;
  testId: string;
  color?: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={props.label}>
      <ActionIcon
        variant="subtle"
        color={props.color}
        aria-label={props.label}
        onClick={props.onClick}
        data-testid={props.testId}
      >
        {props.children}
      </ActionIcon>
    </Tooltip>
  );
}

function UserRowActions({ user: u, rights, actions }: Pick<CardProps, 'user' | 'rights' | 'actions'>) {
  const { t } = useTranslation('users');
  const { editable } = rights;
  const canSuspend = rights.billingOn && !u.administrator && editable && !rights.editDenial(u);
  const active = userAccountState(u.attributes, rights.ns).state === 'active';
  return (
    <Group gap={4} justify="flex-end" data-testid="user-actions">
      {rights.manages && u.id !== rights.actor?.id && (
        <Action label={t('message.button')} testId="user-message" onClick={() => actions.message(u)}>
          <IconMessage size={16} />
        </Action>
      )}
      {editable && (
        <Action label={t('link.button')} testId="user-link" onClick={() => actions.link(u)}>
          <IconDeviceMobile size={16} />
        </Action>
      )}
      {canSuspend && active && (
        <Action
          label={t('billing.suspend.button')}
          testId="user-suspend"
          color="orange"
          onClick={() => actions.suspend(u, 'suspend')}
        >
          <IconLock size={16} />
        </Action>
      )}
      {canSuspend && !active && (
        <Action
          label={t('billing.reactivate.button')}
          testId="user-reactivate"
          color="green"
          onClick={() => actions.suspend(u, 'reactivate')}
        >
          <IconLockOpen size={16} />
        </Action>
      )}
      {rights.canLoginAs(u) && (
        <Action label={t('loginAs.button')} testId="user-login-as" onClick={() => actions.loginAs(u)}>
          <IconLogin2 size={16} />
        </Action>
      )}
      {!rights.editDenial(u) && (
        <Action label={t('edit')} testId="user-edit-open" onClick={() => actions.edit(u)}>
          <IconEdit size={16} />
        </Action>
      )}
      {rights.deletable && !rights.deleteDenial(u) && (
        <Action label={t('delete')} testId="user-delete" color="red" onClick={() => actions.askDelete(u)}>
          <IconTrash size={16} />
        </Action>
      )}
    </Group>
  );
}

export function UserCard({ user: u, rights, actions, dateFmt, now }: CardProps) {
  const { t } = useTranslation('users');
  const expired = !!u.expirationTime && Date.parse(u.expirationTime) < now;
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
              {t('fields.expirationTime')}: {dateFmt.format(new Date(u.expirationTime))}
              {expired ? ` (${t('badges.expired')})` : ''}
            </Text>
          )}
        </Stack>
        <UserRowActions user={u} rights={rights} actions={actions} />
      </Group>
    </Paper>
  );
}
