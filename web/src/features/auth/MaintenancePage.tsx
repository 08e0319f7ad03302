// /maintenance: shown when the server cannot answer (SPEC §2 guard).
import { Button, Stack, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './AuthLayout.tsx';

export function MaintenancePage() {
  const { t } = useTranslation('auth');
  return (
    <AuthLayout title={t('maintenance.title')}>
      <Stack align="center" data-testid="maintenance">
        <IconTool size={48} />
        <Text ta="center">{t('maintenance.description')}</Text>
        <Button onClick={() => window.location.assign('/home')} data-testid="maintenance-retry">
          {t('maintenance.retry')}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
