// The sign-in screen frame shared by login, register, recovery, driver login, share and maintenance.
import { Anchor, Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBrandAndroid, IconBrandApple, IconBrandWhatsapp } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../../components/LanguagePicker.tsx';
import { HeadLogo, LoginBackground, useBranding } from '../../branding/index.ts';

/** The links to the company's WhatsApp and apps (their aria label: the name, else the 'auth' text of the key). */
const APPS = [
  ['whatsapp', IconBrandWhatsapp, 'WhatsApp'],
  ['androidApp', IconBrandAndroid, null],
  ['appleApp', IconBrandApple, null],
] as const;

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('auth');
  const branding = useBranding();
  useEffect(() => {
    document.title = `${title} · ${branding.title}`;
  }, [title, branding.title]);
  return (
    <LoginBackground>
      <Center mih="100dvh" p="md">
        <Paper
          withBorder
          shadow="md"
          radius="md"
          p="xl"
          w={420}
          maw="100%"
          bg="var(--rastro-login-panel-bg, var(--mantine-color-body))"
          c="var(--rastro-login-panel-fg, inherit)"
        >
          <Stack gap="md">
            <Group justify="space-between" wrap="nowrap">
              <Box style={{ minWidth: 0, flex: 1 }}>
                <HeadLogo size="lg" />
              </Box>
              <LanguagePicker />
            </Group>
            <Title order={1} size="h3">
              {title}
            </Title>
            {children}
            <Group gap="md" justify="center">
              {APPS.map(([key, Icon, label]) => {
                const href = branding[key];
                return href ? (
                  <Anchor key={key} href={href} target="_blank" rel="noreferrer" aria-label={label ?? t(key)}>
                    <Icon size={20} />
                  </Anchor>
                ) : null;
              })}
              {branding.dataPolicy && (
                <Anchor href={branding.dataPolicy} target="_blank" rel="noreferrer" size="sm">
                  {t('dataPolicy')}
                </Anchor>
              )}
            </Group>
            <Text size="xs" c="dimmed" ta="center">
              {branding.title}
            </Text>
          </Stack>
        </Paper>
      </Center>
    </LoginBackground>
  );
}
