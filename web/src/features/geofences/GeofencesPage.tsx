// /geofence (SPEC §2, §3 Geofence): the user's geofences, anchors left out (they belong to the device anchor
// action). Search, shape icon, colour, size (km² or length), a click fits the map to the fence; create (draw a
// circle, polygon or line on the map), edit and delete, as the permissions of SPEC §6 allow. The list, search and
// delete with its confirmation are the catalogue scaffold's (useCatalogue, CatalogueList); the row's cell (a click
// fits the map), the shape menu of the add button and the form (a global dialog, drawing.ts) are the page's own.
import { Button, ColorSwatch, Group, Loader, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCircle, IconLine, IconPlus, IconPolygon } from '@tabler/icons-react';
import {
  GEOFENCE_DEFAULT_COLOR,
  areaBounds,
  emptyGeofenceForm,
  geofenceActions,
  geofenceListFilter,
  geofenceShapeOf,
  geofenceToForm,
  parseArea,
  type Geofence,
  type GeofenceFormValues,
  type GeofenceShape,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useViewer } from '../../components/useCan.ts';
import { useCatalogue } from '../../components/useCatalogue.ts';
import { panelPadding } from '../../components/mapParts.ts';
import { getLiveMap } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { openGeofenceForm, startGeofenceDrawing } from './drawing.ts';
import { measureText, numberLocale } from './measure.ts';
import { refusalMessage } from '../../api/http.ts';

const SHAPES: GeofenceShape[] = ['circle', 'polygon', 'line'];
const SHAPE_ICONS = { circle: IconCircle, polygon: IconPolygon, line: IconLine } as const;

/** Fits the live map to a fence, keeping it clear of the side panel on wide screens. */
function fitToGeofence(g: Geofence): void {
  const map = getLiveMap();
  const area = parseArea(g.area);
  if (map && area)
    map.fitBounds(areaBounds(area), { padding: panelPadding(map), maxZoom: 17, duration: 600 });
}

const colorOf = (g: Geofence) =>
  typeof g.attributes?.color === 'string' && g.attributes.color ? g.attributes.color : GEOFENCE_DEFAULT_COLOR;

export function GeofencesPage() {
  const { i18n } = useTranslation();
  const actions = geofenceActions(useViewer());
  const c = useCatalogue<'geofences', GeofenceFormValues>({
    resource: 'geofences',
    ns: 'geofences',
    area: 'geofences',
    rights: actions,
    deleteError: (err, t) => refusalMessage(err) ?? t('deleteError'),
  });
  const { t } = c;
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const locale = numberLocale(i18n.language);
  const columns: DataColumn<Geofence>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      cell: (g) => {
        const shape = geofenceShapeOf(g.area);
        const Icon = shape ? SHAPE_ICONS[shape] : IconPolygon;
        return (
          <UnstyledButton
            w="100%"
            onClick={() => fitToGeofence(g)}
            aria-label={t('showOnMap', { name: g.name })}
            data-testid="geofence-fit"
          >
            <Group gap="xs" wrap="nowrap">
              <ColorSwatch color={colorOf(g)} size={14} data-testid="geofence-color-swatch" />
              <Icon size={18} aria-label={shape ? t(`shapes.${shape}`) : undefined} role="img" />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate data-testid="geofence-name-text">
                  {g.name}
                </Text>
                <Text size="xs" c="dimmed" data-testid="geofence-measure">
                  {measureText(g.area, units.distanceUnit, locale, t('areaUndefined'))}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
        );
      },
    },
  ];

  const add = (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" leftSection={<IconPlus size={14} />} data-testid="geofence-add">
          {t('add')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {SHAPES.map((shape) => {
          const Icon = SHAPE_ICONS[shape];
          return (
            <Menu.Item
              key={shape}
              leftSection={<Icon size={16} />}
              onClick={() => startGeofenceDrawing(emptyGeofenceForm(), shape)}
              data-testid={`geofence-add-${shape}`}
            >
              {t(`shapes.${shape}`)}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Stack gap="sm" data-testid="geofences-page">
      <CatalogueList
        c={c}
        prefix="geofence"
        plural="geofences"
        searchTestId="geofence-search"
        columns={columns}
        filterRows={(query) => geofenceListFilter(c.items, query)}
        add={add}
        emptyText={actions.create ? t('empty') : t('emptyReadonly')}
        newForm={emptyGeofenceForm}
        toForm={(g) => geofenceToForm(g, units.speedUnit, ns)}
        openForm={openGeofenceForm}
        hideHeader
      />
      {!c.loaded && !c.loadError && <Loader size="sm" />}
    </Stack>
  );
}
