// Dialog components by name, lazily loaded. Each feature adds ONE line here for its dialog:
//   deviceEdit: dialog('deviceEdit', () => import('../features/device-edit/index.ts'), 'DeviceEditDialog'),
import { partOf, type FeatureName } from './featureTexts.ts';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DialogComponentProps, DialogName } from '../shell/dialogs.ts';

/** The component of dialog `N`: it takes the props shell/dialogs.ts declares for that name. */
type RegisteredDialog<N extends DialogName> = LazyExoticComponent<ComponentType<DialogComponentProps<N>>>;

/** A dialog: the component `name` of a feature's module, loaded with the feature's texts on its first opening. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own lazy<T extends ComponentType<any>>
const dialog = <K extends string, T extends ComponentType<any>>(
  texts: FeatureName,
  load: () => Promise<Record<K, T>>,
  name: K,
) => lazy(partOf(texts, load, name));

/** One component for every name of DialogPropsByName, and no other. */
export const dialogRegistry: { [N in DialogName]: RegisteredDialog<N> } = {
  changelog: dialog('changelog', () => import('../features/changelog/dialog.ts'), 'ChangelogDialog'),
  deviceEdit: dialog('deviceEdit', () => import('../features/device-edit/index.ts'), 'DeviceEditDialog'),
  deviceQr: dialog('deviceEdit', () => import('../features/device-edit/index.ts'), 'DeviceQrDialog'),
  devicePrint: dialog('deviceEdit', () => import('../features/device-edit/index.ts'), 'DeviceSheet'),
  sendCommand: dialog('commands', () => import('../features/commands/index.ts'), 'SendCommandDialog'),
  deviceShare: dialog('shares', () => import('../features/shares/index.ts'), 'ShareDialog'),
  linkObjects: dialog('linkObjects', () => import('../features/link-objects/index.ts'), 'LinkObjectsDialog'),
  shares: dialog('shares', () => import('../features/shares/index.ts'), 'SharesDialog'),
  graphics: dialog('telemetry', () => import('../features/telemetry/index.ts'), 'GraphicsDialog'),
  geofenceForm: dialog('geofences', () => import('../features/geofences/index.ts'), 'GeofenceFormDialog'),
  notifications: dialog(
    'notifications',
    () => import('../features/notifications/index.ts'),
    'NotificationsDialog',
  ),
  events: dialog('notifications', () => import('../features/notifications/index.ts'), 'EventsDialog'),
  server: dialog(
    'serverSettings',
    () => import('../features/server-settings/index.ts'),
    'ServerSettingsDialog',
  ),
  logObjects: dialog('logs', () => import('../features/logs/index.ts'), 'LogsDialog'),
  theme: dialog('theme', () => import('../features/theme/index.ts'), 'ThemeDialog'),
  userEdit: dialog('users', () => import('../features/users/index.ts'), 'UserEditDialog'),
  drivers: dialog('drivers', () => import('../features/drivers/index.ts'), 'DriversDialog'),
  calendars: dialog('calendars', () => import('../features/calendars/index.ts'), 'CalendarsDialog'),
  maintenances: dialog(
    'maintenances',
    () => import('../features/maintenances/index.ts'),
    'MaintenancesDialog',
  ),
  invoices: dialog('billing', () => import('../features/billing/index.ts'), 'InvoicesDialog'),
  invoicesManager: dialog('billing', () => import('../features/billing/index.ts'), 'InvoicesManagerDialog'),
  integrations: dialog('billing', () => import('../features/billing/index.ts'), 'IntegrationsDialog'),
};
