// ServerHealthPage: its screens arrive with a later issue; for now it names the area and what it will hold.
import { useTranslation } from 'react-i18next';
import { FeatureIntro } from '../../components/FeatureIntro.tsx';

export function ServerHealthPage() {
  const { t } = useTranslation('health');
  return <FeatureIntro title={t('title')} description={t('description')} />;
}
