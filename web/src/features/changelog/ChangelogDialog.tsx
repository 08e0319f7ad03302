// Static changelog (SPEC §2): width 750, versions v3.0.0 to v3.2.1, entries typed feature, improvement, fix,
// security or breaking.
import { Badge, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import {
  CHANGELOG,
  CHANGELOG_DIALOG_WIDTH,
  changelogDate,
  changelogTypeKey,
  type ChangelogEntryType,
} from '@rastro/domain';

const CHANGELOG_WIDTH = CHANGELOG_DIALOG_WIDTH;

const COLORS: Record<ChangelogEntryType, string> = {
  feature: 'blue',
  improvement: 'teal',
  fix: 'orange',
  security: 'red',
  breaking: 'grape',
};

export function ChangelogDialog({ onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('changelog');
  return (
    <Modal opened onClose={onClose} size={CHANGELOG_WIDTH} title={t('title')} data-testid="changelog-dialog">
      <Stack gap="lg">
        {CHANGELOG.map((release) => (
          <Stack key={release.version} gap={6} data-testid={`changelog-${release.version}`}>
            <Group gap="xs">
              <Title order={3} size="h5">
                {release.version}
              </Title>
              <Text size="xs" c="dimmed">
                {changelogDate(release.date, i18n.language)}
              </Text>
            </Group>
            {release.entries.map((c) => (
              <Group key={c.key} gap="xs" wrap="nowrap" align="flex-start">
                <Badge color={COLORS[c.type]} variant="light" w={150} style={{ flexShrink: 0 }}>
                  {t(changelogTypeKey(c.type), { ns: 'common' })}
                </Badge>
                <Text size="sm">{t(c.key, { ns: 'common' })}</Text>
              </Group>
            ))}
          </Stack>
        ))}
      </Stack>
    </Modal>
  );
}
