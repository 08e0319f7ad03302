// The user menu (SPEC §2): entries exactly per the access table (userMenuEntries in @rastro/domain), and the
// version text that opens the changelog for an administrator clicking it 10 times, each within 2 s.
import { Text, UnstyledButton, Group, Avatar } from '@mantine/core';
import {
  IconAdjustments,
  IconBell,
  IconBuildingBank,
  IconCalculator,
  IconCalendar,
  IconFileInvoice,
  IconListDetails,
  IconLogout,
  IconPalette,
  IconPlugConnected,
  IconServer,
  IconSteeringWheel,
  IconTool,
  IconUser,
  IconUsers,
  IconAlertCircle,
  type Icon,
} from '@tabler/icons-react';
import { isAdmin, userMenuEntries, type UserMenuEntry } from '@rastro/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../components/navigation.ts';
import { APP_VERSION, useVersionClicks } from '../features/changelog/index.ts';
import { DeferredMenu } from '../components/floating.tsx';
import { useViewer } from '../components/useCan.ts';
import { openDialog } from '../shell/dialogs.ts';
import { logout } from '../shell/sessionActions.ts';

export function UserMenu({ label }: { label: ReactNode }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const viewer = useViewer();
  const user = viewer.user;
  const entries = userMenuEntries(viewer);
  const versionClick = useVersionClicks(isAdmin(user), () => openDialog('changelog'));

  /** Each entry's icon and what it opens. */
  const entryOf: Record<UserMenuEntry, [Icon, () => void]> = {
    account: [IconUser, () => openDialog('userEdit', { userId: user?.id })],
    advancedLogs: [IconListDetails, () => openDialog('logObjects')],
    integrations: [IconPlugConnected, () => openDialog('integrations')],
    billing: [IconBuildingBank, () => openDialog('invoicesManager')],
    invoices: [IconFileInvoice, () => openDialog('invoices')],
    theme: [IconPalette, () => openDialog('theme')],
    users: [IconUsers, () => navigate('/users')],
    computed: [IconCalculator, () => navigate('/computed')],
    server: [IconServer, () => openDialog('server')],
    notifications: [IconBell, () => openDialog('notifications')],
    events: [IconAlertCircle, () => openDialog('events')],
    drivers: [IconSteeringWheel, () => openDialog('drivers')],
    calendars: [IconCalendar, () => openDialog('calendars')],
    maintenance: [IconTool, () => openDialog('maintenances')],
    logout: [IconLogout, () => void logout()],
  };

  return (
    <DeferredMenu
      position="bottom-end"
      width={260}
      shadow="md"
      withinPortal
      dropdownProps={{ 'data-testid': 'user-menu' }}
      target={
        <UnstyledButton aria-label={t('userMenu.open')} data-testid="user-menu-button">
          <Group gap={6} wrap="nowrap">
            <Avatar size={28} radius="xl" color="blue">
              <IconAdjustments size={16} />
            </Avatar>
            <Text size="sm" fw={500} lineClamp={1} maw={180} data-testid="user-area">
              {label}
            </Text>
          </Group>
        </UnstyledButton>
      }
    >
      {(Menu) => (
        <>
          {entries.map((entry) => {
            const [Icon, open] = entryOf[entry];
            return (
              <Menu.Item
                key={entry}
                leftSection={<Icon size={16} />}
                color={entry === 'logout' ? 'red' : undefined}
                onClick={open}
                data-testid={`user-menu-${entry}`}
              >
                {t(`userMenu.${entry}`)}
              </Menu.Item>
            );
          })}
          <Menu.Divider />
          <Text
            size="xs"
            c="dimmed"
            ta="center"
            py={4}
            style={{ cursor: 'default', userSelect: 'none' }}
            onClick={versionClick}
            data-testid="version-text"
          >
            {t('version', { version: APP_VERSION })}
          </Text>
        </>
      )}
    </DeferredMenu>
  );
}
