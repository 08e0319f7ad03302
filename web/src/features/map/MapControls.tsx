// Map style picker and map preferences (SPEC §3 mapPref), floating over the map's right edge.
import { ActionIcon, Checkbox, Stack } from '@mantine/core';
import { IconAdjustments, IconStack2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePrefs, type MapPref } from '../../stores/prefs.ts';
import type { MapStyleOption } from './styles.ts';
import { DeferredMenu, Hint } from '../../components/floating.tsx';

const PREF_KEYS: Array<keyof MapPref> = [
  'clustered',
  'name',
  'plate',
  'status',
  'precision',
  'showGeofences',
  'geofenceNames',
];

export function MapControls({
  styles,
  current,
  top = 110,
}: {
  styles: MapStyleOption[];
  current: string;
  /** Distance (px) from the map's top, below MapLibre's zoom and compass buttons. */
  top?: number;
}) {
  const { t } = useTranslation('map');
  const mapPref = usePrefs((s) => s.mapPref);
  const setMapPref = usePrefs((s) => s.setMapPref);
  const setMapStyle = usePrefs((s) => s.setMapStyle);
  return (
    <Stack gap={6} style={{ position: 'absolute', right: 10, top, zIndex: 2 }}>
      <DeferredMenu
        position="left-start"
        withinPortal
        target={
          <Hint label={t('style')} position="left">
            <ActionIcon variant="default" size="lg" aria-label={t('style')} data-testid="map-style-button">
              <IconStack2 size={18} />
            </ActionIcon>
          </Hint>
        }
      >
        {(Menu) => (
          <>
            <Menu.Label>{t('style')}</Menu.Label>
            {styles.map((s) => (
              <Menu.Item
                key={s.id}
                data-testid={`map-style-${s.id}`}
                onClick={() => setMapStyle(s.id)}
                fw={s.id === current ? 700 : undefined}
                aria-current={s.id === current ? 'true' : undefined}
              >
                {t(s.label)}
              </Menu.Item>
            ))}
          </>
        )}
      </DeferredMenu>
      <DeferredMenu
        position="left-start"
        withinPortal
        closeOnItemClick={false}
        target={
          <Hint label={t('preferences')} position="left">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('preferences')}
              data-testid="map-pref-button"
            >
              <IconAdjustments size={18} />
            </ActionIcon>
          </Hint>
        }
      >
        {(Menu) => (
          <>
            <Menu.Label>{t('preferences')}</Menu.Label>
            {PREF_KEYS.map((k) => (
              <Menu.Item key={k} component="div">
                <Checkbox
                  label={t(`pref.${k}`)}
                  checked={mapPref[k]}
                  data-testid={`map-pref-${k}`}
                  onChange={(e) => setMapPref({ [k]: e.currentTarget.checked })}
                />
              </Menu.Item>
            ))}
          </>
        )}
      </DeferredMenu>
    </Stack>
  );
}
