// GeofencesPage: its screens arrive with a later issue; for now it names the area and what it will hold.
import { useTranslation } from 'react-i18next';
import { FeatureIntro } from '../../components/FeatureIntro.tsx';

export function GeofencesPage() {
  const { t } = useTranslation('geofences');
  return <FeatureIntro title={t('title')} description={t('description')} />;
}
