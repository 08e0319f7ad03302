// Map style picker and map preferences (SPEC §3 mapPref), floating over the map's right edge.
import { ActionIcon, Checkbox, Stack } from '@mantine/core';
import { IconAdjustments, IconStack2 } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultMapPref, usePrefs, type MapPref } from '../../stores/prefs.ts';
import type { MapStyleOption } from './styles.ts';
import { DeferredMenu, Hint } from '../../components/floating.tsx';

/** The preferences' checkboxes, in the order of their defaults. */
const PREF_KEYS = Object.keys(defaultMapPref) as Array<keyof MapPref>;

/** A menu's button: an icon with its label as hint and accessible name. */
const menuButton = (label: string, testId: string, icon: ReactNode) => (
  <Hint label={label} position="left">
    <ActionIcon variant="default" size="lg" aria-label={label} data-testid={testId}>
      {icon}
    </ActionIcon>
  </Hint>
);

/** Placed by map.css (rastro-map-controls). */
export function MapControls({ styles, current }: { styles: MapStyleOption[]; current: string }) {
  const { t } = useTranslation('map');
  const mapPref = usePrefs((s) => s.mapPref);
  const setMapPref = usePrefs((s) => s.setMapPref);
  const setMapStyle = usePrefs((s) => s.setMapStyle);
  return (
    <Stack gap={6} className="rastro-map-controls" style={{ position: 'absolute', right: 10, zIndex: 2 }}>
      <DeferredMenu
        position="left-start"
        target={menuButton(t('style'), 'map-style-button', <IconStack2 size={18} />)}
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
        closeOnItemClick={false}
        target={menuButton(t('preferences'), 'map-pref-button', <IconAdjustments size={18} />)}
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
