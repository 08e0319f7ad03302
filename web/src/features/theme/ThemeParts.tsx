// Parts of the theme dialog: an image slot (preview, upload button, remove) and the live previews of the colours
// and of the login screen, drawn from the form's current values.
import { ActionIcon, Box, Button, Group, Image, Input, Paper, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { readableTextOn, type ThemeSettings } from '@rastro/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { gradientCss } from '../../branding/index.ts';

export function ImageSlot({
  label,
  hint,
  url,
  error,
  action,
  onRemove,
  height,
  testId,
}: {
  label: string;
  hint?: string;
  url: string;
  error?: string;
  /** The upload button (useThemeUpload), given its test id `<testId>-upload`; none while the slot is closed. */
  action: ((testId: string) => ReactNode) | null;
  onRemove(): void;
  height: number;
  testId: string;
}) {
  const { t } = useTranslation('theme');
  return (
    <Input.Wrapper label={label} description={hint} error={error} data-testid={testId}>
      {url && (
        <Paper withBorder p={4} radius="sm" my={4}>
          <Image src={url} alt="" h={height} fit="contain" data-testid={`${testId}-preview`} />
        </Paper>
      )}
      <Group gap="xs">
        {action?.(`${testId}-upload`)}
        {url && (
          <ActionIcon variant="subtle" color="red" onClick={onRemove} aria-label={t('remove')}>
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Group>
    </Input.Wrapper>
  );
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const colourOr = (c: string, fallback: string) => (HEX.test(c) ? c : fallback);

/** Header, menu, a primary button and the login panel in the chosen colours, as they will look. */
export function ColoursPreview({ theme }: { theme: ThemeSettings }) {
  const { t } = useTranslation('theme');
  const c = theme.colors;
  const primary = colourOr(c.primary, '#228be6');
  return (
    <Paper withBorder radius="sm" style={{ overflow: 'hidden' }} data-testid="theme-preview">
      <Group
        h={40}
        px="sm"
        justify="space-between"
        data-testid="theme-preview-header"
        style={{
          background: colourOr(c.header, 'var(--mantine-color-body)'),
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <Text fw={700} size="sm" style={{ color: HEX.test(c.header) ? readableTextOn(c.header) : undefined }}>
          {theme.headLogo.text || theme.title}
        </Text>
      </Group>
      <Group gap={0} align="stretch" wrap="nowrap" h={110}>
        <Box
          w={56}
          style={{
            background: colourOr(c.menu, 'var(--mantine-color-body)'),
            borderRight: '1px solid var(--mantine-color-default-border)',
          }}
        />
        <Group p="sm" style={{ flex: 1 }} justify="space-around">
          <Button color={primary} size="xs" data-testid="theme-preview-button">
            {t('preview.button')}
          </Button>
          <Paper
            withBorder
            p="xs"
            w={120}
            style={{
              background: colourOr(c.loginPanel, 'var(--mantine-color-body)'),
              color: HEX.test(c.loginPanel) ? readableTextOn(c.loginPanel) : undefined,
            }}
          >
            <Text size="xs">{t('preview.loginPanel')}</Text>
          </Paper>
        </Group>
      </Group>
    </Paper>
  );
}

/** A small login screen with the chosen background. */
export function LoginPreview({ theme }: { theme: ThemeSettings }) {
  const { t } = useTranslation('theme');
  const l = theme.login;
  const image = l.background === 'image' ? l.image : l.background === 'slider' ? (l.slides[0] ?? '') : '';
  const background =
    l.background === 'animated'
      ? gradientCss(l.gradient)
      : image
        ? `center / cover no-repeat url("${image.replace(/["\\\n]/g, '')}")`
        : colourOr(l.color, 'var(--mantine-color-body)');
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {t('preview.login')}
      </Text>
      <Box
        h={120}
        style={{ background, borderRadius: 6, display: 'grid', placeItems: 'center' }}
        data-testid="theme-login-preview"
      >
        <Paper
          withBorder
          w={90}
          h={60}
          style={{ background: colourOr(theme.colors.loginPanel, 'var(--mantine-color-body)') }}
        />
      </Box>
    </Stack>
  );
}
