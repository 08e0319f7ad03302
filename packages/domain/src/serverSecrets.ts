// What each kind of caller may read of the server's attributes (GET /api/server), by allow-list: a name is shown
// to an anonymous caller or a signed-in non-administrator only when it is listed below for that audience; any other
// name, whatever it looks like ({ns}.secretWord, an integration's URL, a new setting nobody listed yet), reaches
// administrators only.
// - anonymous (the login, registration, recovery and QR-driver pages of Rastro and of Traccar's web app): the
//   language, branding, units and time settings those pages show;
// - user (every signed-in non-administrator, share guests included): the settings its pages read, and the map
//   providers' browser keys its map sends to the tile servers;
// - admin: everything (the Server settings dialog edits them all).
import { nsKey, DEFAULT_NS } from './attributes.ts';
import {
  SERVER_FLAG_ATTRIBUTES,
  SERVER_TEXT_ATTRIBUTES,
  type ServerFlag,
  type ServerTextSetting,
} from './serverSettingsForm.ts';
import type { Attributes } from './types.ts';

export type ServerViewer = 'admin' | 'user' | 'anonymous';

/** Settings of the Server settings dialog that stay with administrators (the SMS gateway's address and key). */
export const ADMIN_ONLY_SERVER_SETTINGS = [
  'smsUrl',
  'smsKey',
  'smsType',
  'smsRefer',
] as const satisfies readonly (ServerFlag | ServerTextSetting)[];

/** Settings of the dialog the pages before sign-in read (Rastro's names, {ns}-prefixed where the product owns them). */
const PUBLIC_SETTINGS: readonly (ServerFlag | ServerTextSetting)[] = [
  'lang',
  'twelveHourFormat',
  'speedUnit',
  'distanceUnit',
  'altitudeUnit',
  'volumeUnit',
  'currency', // the suspended account's invoices on the login page
  'timezone',
];

/** Rastro attributes outside the dialog: the logo width of the white-label header ({ns}-prefixed). */
const PUBLIC_NS = ['logoWidth'];

/** Traccar web app's server attributes of its login and registration pages and its theme (plain names). */
const PUBLIC_PLAIN = [
  'title',
  'description',
  'logo',
  'logoInverted',
  'colorPrimary',
  'colorSecondary',
  'darkMode',
  'language',
  'ui.disableLoginLanguage',
  'termsUrl',
  'privacyUrl',
  'totpEnable',
  'totpForce',
  'serviceWorkerUpdateInterval',
];

/** Map providers' browser keys: the map sends them to the tile servers, so every signed-in map needs them. */
const MAP_KEYS_NS = ['googleKey', 'mapsKey'];
const MAP_KEYS_PLAIN = [
  'googleKey',
  'bingMapsKey',
  'mapTilerKey',
  'locationIqKey',
  'mapboxAccessToken',
  'tomTomKey',
  'hereKey',
  'ordnanceSurveyKey',
  'openWeatherKey',
];

/** Traccar web app's preferences a server may set for everyone (user attributes fall back to them). */
const USER_PLAIN = [
  'support',
  'disableChange',
  'disableShare',
  'mapGeofences',
  'mapLiveRoutes',
  'mapDirection',
  'mapFollow',
  'mapCluster',
  'mapOnSelect',
  'activeMapStyles',
  'selectedMapStyle',
  'mapOverlay',
  'devicePrimary',
  'deviceSecondary',
  'positionItems',
  'soundEvents',
  'soundAlarms',
  'ui.disableSavedCommands',
  'ui.disableGroups',
  'ui.disableAttributes',
  'ui.disableEvents',
  'ui.disableVehicleFeatures',
  'ui.disableDrivers',
  'ui.disableComputedAttributes',
  'ui.disableCalendars',
  'ui.disableMaintenance',
  'ui.disableReport',
  'web.liveRouteLength',
  'web.selectZoom',
  'web.maxZoom',
  'web.reportColor',
  'mapLineWidth',
  'mapLineOpacity',
  'iconScale',
  'navigationAppLink',
  'navigationAppTitle',
];

const settingName = (ns: string, field: ServerFlag | ServerTextSetting): string => {
  const d = { ...SERVER_FLAG_ATTRIBUTES, ...SERVER_TEXT_ATTRIBUTES }[field];
  return d.plain ? d.key : nsKey(ns, d.key);
};

interface Lists {
  anonymous: Set<string>;
  user: Set<string>;
}

const cache = new Map<string, Lists>();

function listsFor(ns: string): Lists {
  let lists = cache.get(ns);
  if (lists) return lists;
  const anonymous = new Set<string>([
    ...PUBLIC_SETTINGS.map((f) => settingName(ns, f)),
    ...PUBLIC_NS.map((k) => nsKey(ns, k)),
    ...PUBLIC_PLAIN,
  ]);
  const adminOnly = new Set<string>(ADMIN_ONLY_SERVER_SETTINGS);
  const dialog = [...Object.keys(SERVER_FLAG_ATTRIBUTES), ...Object.keys(SERVER_TEXT_ATTRIBUTES)] as (
    ServerFlag | ServerTextSetting
  )[];
  const user = new Set<string>([
    ...anonymous,
    ...dialog.filter((f) => !adminOnly.has(f)).map((f) => settingName(ns, f)),
    ...MAP_KEYS_NS.map((k) => nsKey(ns, k)),
    ...MAP_KEYS_PLAIN,
    ...USER_PLAIN,
  ]);
  lists = { anonymous, user };
  cache.set(ns, lists);
  return lists;
}

/** The least privileged caller that may read a server attribute: 'anonymous', 'user', or 'admin' (not listed). */
export function serverAttributeAudience(name: string, ns: string = DEFAULT_NS): ServerViewer {
  const lists = listsFor(ns);
  if (lists.anonymous.has(name)) return 'anonymous';
  if (lists.user.has(name)) return 'user';
  return 'admin';
}

/** The server attributes a caller may read. */
export function visibleServerAttributes(
  attributes: Attributes,
  viewer: ServerViewer,
  ns: string = DEFAULT_NS,
): Attributes {
  if (viewer === 'admin') return attributes;
  const allowed = listsFor(ns)[viewer];
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attributes)) if (allowed.has(k)) out[k] = v;
  return out;
}
