// The link-objects dialog (SPEC §2 global dialog "link objects"; Traccar's connections): which kinds of objects a
// device, a group or a user can be linked to through /api/permissions, with the API path that lists them and the
// permission key of each side. The same pairs the server accepts (PERMISSION_PAIRS).
import { PERMISSION_PAIRS } from './schemas/entities.ts';

export type LinkOwner = 'device' | 'group' | 'user';
export const LINK_PROPERTIES = [
  'geofence',
  'notification',
  'driver',
  'calendar',
  'attribute',
  'command',
  'maintenance',
] as const;
export type LinkProperty = (typeof LINK_PROPERTIES)[number];

/** API list path of each linkable kind (`attribute` = computed attributes, `command` = saved commands). */
export const LINK_PATHS: Readonly<Record<LinkProperty, string>> = {
  geofence: '/geofences',
  notification: '/notifications',
  driver: '/drivers',
  calendar: '/calendars',
  attribute: '/attributes/computed',
  command: '/commands',
  maintenance: '/maintenance',
};

/** The kinds the dialog offers for an owner, in a fixed order, as the server's pairs allow. */
export function linkableKinds(owner: LinkOwner): LinkProperty[] {
  const allowed = PERMISSION_PAIRS[owner] ?? [];
  return LINK_PROPERTIES.filter((p) => allowed.includes(p));
}

/** The /api/permissions body linking `owner` #ownerId to `property` #propertyId. */
export function linkBody(
  owner: LinkOwner,
  ownerId: number,
  property: LinkProperty,
  propertyId: number,
): Record<string, number> {
  return { [`${owner}Id`]: ownerId, [`${property}Id`]: propertyId };
}

/** Related-objects loading gives up after this long (SPEC §8 "related-objects timeout"). */
export const LINK_LOAD_TIMEOUT_MS = 15_000;

/** A linkable object's label: name, description or attribute, else #id. */
export function linkLabel(o: {
  id: number;
  name?: unknown;
  description?: unknown;
  attribute?: unknown;
  type?: unknown;
}): string {
  for (const v of [o.name, o.description, o.attribute])
    if (typeof v === 'string' && v.trim()) return v.trim();
  if (typeof o.type === 'string' && o.type) return o.type;
  return `#${o.id}`;
}
