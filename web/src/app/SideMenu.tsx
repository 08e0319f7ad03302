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

const ICONS: Record<SideMenuLink, Icon> = {
  '/dashboard': IconGauge,
  '/devices': IconCar,
  '/reports': IconChartBar,
  '/geofence': IconFence,
  '/commands': IconTerminal2,
  '/groups': IconUsersGroup,
  '/server-health': IconHeartbeat,
  '/notifications': IconBell,
  '/monitoring': IconUrgent,
};

const KEYS: Record<SideMenuLink, string> = {
  '/dashboard': 'dashboard',
  '/devices': 'devices',
  '/reports': 'reports',
  '/geofence': 'geofence',
  '/commands': 'commands',
  '/groups': 'groups',
  '/server-health': 'serverHealth',
  '/notifications': 'notifications',
  '/monitoring': 'monitoring',
};

/** The links the access table opens to the viewer (@rastro/domain access.ts). */
export function useSideMenuLinks(): SideMenuLink[] {
  return sideMenuLinks(useViewer());
}

/** Desktop: a narrow icon rail. */
export function SideRail() {
  const { t } = useTranslation('shell');
  const links = useSideMenuLinks();
  const { pathname } = useRouteLocation();
  return (
    <Stack
      component="nav"
      aria-label={t('menu.label')}
      gap={4}
      p={6}
      data-testid="side-menu"
      style={{
        borderRight: '1px solid var(--mantine-color-default-border)',
        background: 'var(--rastro-menu-bg, var(--mantine-color-body))',
        color: 'var(--rastro-menu-fg, inherit)',
        zIndex: 6,
      }}
    >
      {links.map((link) => {
        const Icon = ICONS[link];
        const active = pathname === link || pathname.startsWith(`${link}/`);
        return (
          <Hint key={link} label={t(`routes.${KEYS[link]}`)} position="right">
            <UnstyledButton
              component={Link}
              to={link}
              aria-label={t(`routes.${KEYS[link]}`)}
              aria-current={active ? 'page' : undefined}
              data-testid={`menu-link-${link.slice(1)}`}
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

/** Mobile: the same links as a list in the drawer. */
export function SideMenuList({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  const links = useSideMenuLinks();
  const { pathname } = useRouteLocation();
  return (
    <Stack component="nav" aria-label={t('menu.label')} gap={0} data-testid="side-menu">
      {links.map((link) => {
        const Icon = ICONS[link];
        return (
          <NavLink
            key={link}
            component={Link}
            to={link}
            onClick={onNavigate}
            active={pathname === link || pathname.startsWith(`${link}/`)}
            label={t(`routes.${KEYS[link]}`)}
            leftSection={<Icon size={20} />}
            data-testid={`menu-link-${link.slice(1)}`}
          />
        );
      })}
    </Stack>
  );
}
