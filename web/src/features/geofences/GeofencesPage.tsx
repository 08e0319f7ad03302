// /geofence (SPEC §2, §3 Geofence): the user's geofences, anchors left out (they belong to the device anchor
// action). Search, shape icon, colour, size (km² or length), a click fits the map to the fence; create (draw a
// circle, polygon or line on the map), edit and delete, as the permissions of SPEC §6 allow. The list state and
// the delete with its confirmation are the catalogue scaffold's (useCatalogue, InlineDeleteConfirm); the rows
// (a click fits the map) and the shape menu of the add button are the page's own.
import {
  ActionIcon,
  Alert,
  Button,
  ColorSwatch,
  Group,
  Loader,
  Menu,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconCircle, IconEdit, IconLine, IconPlus, IconPolygon, IconTrash } from '@tabler/icons-react';
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
  type GeofenceShape,
} from '@rastro/domain';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { InlineDeleteConfirm } from '../../components/InlineDeleteConfirm.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { useViewer } from '../../components/useCan.ts';
import { useCatalogue } from '../../components/useCatalogue.ts';
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
  if (!map || !area) return;
  const wide = map.getContainer().clientWidth > 900;
  map.fitBounds(areaBounds(area), {
    padding: { top: 60, bottom: 60, right: 60, left: wide ? 480 : 40 },
    maxZoom: 17,
    duration: 600,
  });
}

const colorOf = (g: Geofence) =>
  typeof g.attributes?.color === 'string' && g.attributes.color ? g.attributes.color : GEOFENCE_DEFAULT_COLOR;

export function GeofencesPage() {
  const { i18n } = useTranslation();
  const actions = geofenceActions(useViewer());
  // the form is drawn on the map (drawing.ts), so the scaffold holds only the list and the delete
  const c = useCatalogue<'geofences', { id: number }>({
    resource: 'geofences',
    ns: 'geofences',
    area: 'geofences',
    rights: actions,
    deleteError: (err, t) => refusalMessage(err) ?? t('deleteError'),
  });
  const { t, deleting } = c;
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => geofenceListFilter(c.items, deferredQuery), [c.items, deferredQuery]);
  const hasFences = useMemo(() => geofenceListFilter(c.items, '').length > 0, [c.items]);
  const locale = numberLocale(i18n.language);

  const create = (shape: GeofenceShape) => startGeofenceDrawing(emptyGeofenceForm(), shape);

  return (
    <Stack gap="sm" data-testid="geofences-page">
      <Group gap="xs" wrap="nowrap">
        <SearchInput
          flex={1}
          label={t('search')}
          value={query}
          onSearch={setQuery}
          testId="geofence-search"
        />
        {actions.create && (
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
                    onClick={() => create(shape)}
                    data-testid={`geofence-add-${shape}`}
                  >
                    {t(`shapes.${shape}`)}
                  </Menu.Item>
                );
              })}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {!c.loaded && !c.loadError && <Loader size="sm" />}
      {c.loadError && <Alert color="red">{t('loadError')}</Alert>}
      {c.loaded && shown.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="geofences-empty">
          {hasFences ? t('noMatch') : actions.create ? t('empty') : t('emptyReadonly')}
        </Text>
      )}
      <Stack gap={4} data-testid="geofence-list">
        {shown.map((g) => {
          const shape = geofenceShapeOf(g.area);
          const Icon = shape ? SHAPE_ICONS[shape] : IconPolygon;
          return (
            <Group
              key={g.id}
              gap="xs"
              wrap="nowrap"
              px="xs"
              py={6}
              style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              data-testid="geofence-row"
              data-geofence-id={g.id}
            >
              <UnstyledButton
                flex={1}
                style={{ minWidth: 0 }}
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
              {actions.edit && (
                <ActionIcon
                  variant="subtle"
                  aria-label={t('edit')}
                  onClick={() => openGeofenceForm(geofenceToForm(g, units.speedUnit, ns))}
                  data-testid="geofence-edit"
                >
                  <IconEdit size={16} />
                </ActionIcon>
              )}
              {actions.delete && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('delete')}
                  onClick={() => c.setDeleting(g)}
                  data-testid="geofence-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          );
        })}
      </Stack>

      {deleting && (
        <InlineDeleteConfirm
          title={t('deleteTitle')}
          question={t('deleteQuestion', { name: deleting.name })}
          cancelLabel={t('cancel')}
          deleteLabel={t('delete')}
          onCancel={() => c.setDeleting(null)}
          onConfirm={() => void c.confirmDelete()}
          loading={c.removing}
          testId="geofence-delete"
        />
      )}
    </Stack>
  );
}
