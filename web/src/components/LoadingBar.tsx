// A thin indeterminate bar across the top while the app waits (SPEC §1: until the server is ready).
import { Progress } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function LoadingBar({ visible = true }: { visible?: boolean }) {
  const { t } = useTranslation('common');
  if (!visible) return null;
  return (
    <Progress
      value={100}
      animated
      striped
      size={3}
      radius={0}
      aria-label={t('loading')}
      role="progressbar"
      data-testid="loading-bar"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1000 }}
    />
  );
}
