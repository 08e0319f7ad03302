// Header (SPEC §1): logo, weather and time, sound mute, push control, and the user area (the user's name, or
// for a shared-link guest the countdown to the link's expiry) opening the user menu.
import {
  ActionIcon,
  Burger,
  Group,
  Text,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconLogout, IconMoon, IconSun, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { countdown, isShared } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { Countdown } from '../components/Countdown.tsx';
import { HintIcon } from '../components/floating.tsx';
import { useIsMobile } from '../components/useIsMobile.ts';
import { HeadLogo } from '../branding/index.ts';
import { WeatherWidget } from '../features/weather/index.ts';
import { usePrefs } from '../stores/prefs.ts';
import { useSession } from '../stores/session.ts';
import { PushControl } from './PushControl.tsx';
import { logout } from '../shell/sessionActions.ts';
import { useUi } from '../shell/ui.ts';
import { UserMenu } from './UserMenu.tsx';

export const HEADER_HEIGHT = 52;

/** `onShareExpired`: a shared-link guest's link ran out (the countdown reached 0). */
export function Header({ onShareExpired }: { onShareExpired: () => void }) {
  const { t } = useTranslation('shell');
  const mobile = useIsMobile();
  const menuOpen = useUi((s) => s.menuOpen);
  const setMenuOpen = useUi((s) => s.setMenuOpen);
  const user = useSession((s) => s.user);
  const shared = isShared(user);
  // the sound mute persists in localStorage isMuted; Mantine keeps the colour scheme there too
  const muted = usePrefs((s) => s.isMuted);
  const toggleMuted = usePrefs((s) => s.toggleMuted);
  const { setColorScheme } = useMantineColorScheme();
  const dark = useComputedColorScheme('light') === 'dark';
  // the link's time left: the unit is the domain's (SPEC §9: days over 86400 s, hours, minutes, else seconds)
  const countdownText = (seconds: number) => {
    const c = countdown(seconds);
    return c.expired ? t('expired.message') : t(`countdown.${c.unit}`, { count: c.value });
  };

  return (
    <Group
      component="header"
      h={HEADER_HEIGHT}
      px="sm"
      justify="space-between"
      wrap="nowrap"
      data-testid="header"
      style={{
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: 'var(--rastro-header-bg, var(--mantine-color-body))',
        color: 'var(--rastro-header-fg, inherit)',
        zIndex: 10,
      }}
    >
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {mobile && !shared && (
          <Burger
            opened={menuOpen}
            onClick={() => setMenuOpen(!menuOpen)}
            size="sm"
            aria-label={t('menu.toggle')}
            data-testid="menu-burger"
          />
        )}
        <HeadLogo />
      </Group>
      <Group gap={mobile ? 4 : 'xs'} wrap="nowrap">
        <WeatherWidget compact={mobile} />
        <HintIcon
          label={muted ? t('header.unmute') : t('header.mute')}
          onClick={toggleMuted}
          aria-pressed={muted}
          data-testid="mute-toggle"
        >
          {muted ? <IconVolumeOff size={20} /> : <IconVolume size={20} />}
        </HintIcon>
        {!shared && <PushControl />}
        {!mobile && (
          <HintIcon
            label={dark ? t('header.light') : t('header.dark')}
            data-testid="color-scheme-toggle"
            onClick={() => setColorScheme(dark ? 'light' : 'dark')}
          >
            {dark ? <IconSun size={20} /> : <IconMoon size={20} />}
          </HintIcon>
        )}
        {shared ? (
          <Group gap={4} wrap="nowrap">
            {user?.expirationTime ? (
              <Text size="sm" fw={600} aria-live="polite">
                <Countdown expiresAt={user.expirationTime} onExpire={onShareExpired}>
                  {(s) => countdownText(s)}
                </Countdown>
              </Text>
            ) : null}
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('userMenu.logout')}
              onClick={() => void logout()}
              data-testid="guest-logout"
            >
              <IconLogout size={18} />
            </ActionIcon>
          </Group>
        ) : (
          <UserMenu label={user?.name || user?.email} />
        )}
      </Group>
    </Group>
  );
}
