// Side menu links of SPEC §2, each shown only when the access table (@rastro/domain access.ts) opens its screen.
import { NavLink, Stack, UnstyledButton } from '@mantine/core';
import {
  IconBell,
  IconCar,
  IconChartBar,
  IconFence,
  IconGauge,
  IconHeartbeat,
  IconTerminal2,
  IconUrgent,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { sideMenuLinks, type SideMenuLink } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRouteLocation } from '../components/navigation.ts';
import { useViewer } from '../components/useCan.ts';
import { Hint } from '../components/floating.tsx';

/** Each link's icon and its text key (shell `routes.*`). */
const LINKS: Record<SideMenuLink, [Icon, string]> = {
  '/dashboard': [IconGauge, 'dashboard'],
  '/devices': [IconCar, 'devices'],
  '/reports': [IconChartBar, 'reports'],
  '/geofence': [IconFence, 'geofence'],
  '/commands': [IconTerminal2, 'commands'],
  '/groups': [IconUsersGroup, 'groups'],
  '/server-health': [IconHeartbeat, 'serverHealth'],
  '/notifications': [IconBell, 'notifications'],
  '/monitoring': [IconUrgent, 'monitoring'],
};

const isActive = (pathname: string, link: string) => pathname === link || pathname.startsWith(`${link}/`);

/** Desktop: a narrow icon rail; on a phone (`list`), the same links as a list in the drawer. */
export function SideMenu({ list = false, onNavigate }: { list?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  const links = sideMenuLinks(useViewer());
  const { pathname } = useRouteLocation();
  const rail = {
    gap: 4,
    p: 6,
    style: {
      borderRight: '1px solid var(--mantine-color-default-border)',
      background: 'var(--rastro-menu-bg, var(--mantine-color-body))',
      color: 'var(--rastro-menu-fg, inherit)',
      zIndex: 6,
    },
  };
  return (
    <Stack
      component="nav"
      aria-label={t('menu.label')}
      data-testid="side-menu"
      {...(list ? { gap: 0 } : rail)}
    >
      {links.map((link) => {
        const [Icon, key] = LINKS[link];
        const active = isActive(pathname, link);
        const testId = `menu-link-${link.slice(1)}`;
        return list ? (
          <NavLink
            key={link}
            component={Link}
            to={link}
            onClick={onNavigate}
            active={active}
            label={t(`routes.${key}`)}
            leftSection={<Icon size={20} />}
            data-testid={testId}
          />
        ) : (
          <Hint key={link} label={t(`routes.${key}`)} position="right">
            <UnstyledButton
              component={Link}
              to={link}
              aria-label={t(`routes.${key}`)}
              aria-current={active ? 'page' : undefined}
              data-testid={testId}
              p={8}
              style={{
                borderRadius: 8,
                display: 'flex',
                background: active ? 'var(--mantine-primary-color-light)' : undefined,
                color: active ? 'var(--mantine-primary-color-light-color)' : undefined,
              }}
            >
              <Icon size={22} />
            </UnstyledButton>
          </Hint>
        );
      })}
    </Stack>
  );
}
