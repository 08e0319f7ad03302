// Dialog components by name, lazily loaded. Each feature adds ONE line here for its dialog:
//   deviceEdit: lazy(() => feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DeviceEditDialog }))),
import { feature } from './featureTexts.ts';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DialogComponentProps, DialogName } from '../shell/dialogs.ts';

/** The component of dialog `N`: it takes the props shell/dialogs.ts declares for that name. */
type RegisteredDialog<N extends DialogName> = LazyExoticComponent<ComponentType<DialogComponentProps<N>>>;

/** One component for every name of DialogPropsByName, and no other. */
export const dialogRegistry: { [N in DialogName]: RegisteredDialog<N> } = {
  changelog: lazy(() =>
    feature('changelog', import('../features/changelog/dialog.ts')).then((m) => ({
      default: m.ChangelogDialog,
    })),
  ),
  deviceEdit: lazy(() =>
    feature('deviceEdit', import('../features/device-edit/index.ts')).then((m) => ({
      default: m.DeviceEditDialog,
    })),
  ),
  deviceQr: lazy(() =>
    feature('deviceEdit', import('../features/device-edit/index.ts')).then((m) => ({
      default: m.DeviceQrDialog,
    })),
  ),
  devicePrint: lazy(() =>
    feature('deviceEdit', import('../features/device-edit/index.ts')).then((m) => ({
      default: m.DeviceSheet,
    })),
  ),
  sendCommand: lazy(() =>
    feature('commands', import('../features/commands/index.ts')).then((m) => ({
      default: m.SendCommandDialog,
    })),
  ),
  deviceShare: lazy(() =>
    feature('shares', import('../features/shares/index.ts')).then((m) => ({ default: m.ShareDialog })),
  ),
  linkObjects: lazy(() =>
    feature('linkObjects', import('../features/link-objects/index.ts')).then((m) => ({
      default: m.LinkObjectsDialog,
    })),
  ),
  shares: lazy(() =>
    feature('shares', import('../features/shares/index.ts')).then((m) => ({ default: m.SharesDialog })),
  ),
  graphics: lazy(() =>
    feature('telemetry', import('../features/telemetry/index.ts')).then((m) => ({
      default: m.GraphicsDialog,
    })),
  ),
  geofenceForm: lazy(() =>
    feature('geofences', import('../features/geofences/index.ts')).then((m) => ({
      default: m.GeofenceFormDialog,
    })),
  ),
  notifications: lazy(() =>
    feature('notifications', import('../features/notifications/index.ts')).then((m) => ({
      default: m.NotificationsDialog,
    })),
  ),
  events: lazy(() =>
    feature('notifications', import('../features/notifications/index.ts')).then((m) => ({
      default: m.EventsDialog,
    })),
  ),
  server: lazy(() =>
    feature('serverSettings', import('../features/server-settings/index.ts')).then((m) => ({
      default: m.ServerSettingsDialog,
    })),
  ),
  logObjects: lazy(() =>
    feature('logs', import('../features/logs/index.ts')).then((m) => ({ default: m.LogsDialog })),
  ),
  theme: lazy(() =>
    feature('theme', import('../features/theme/index.ts')).then((m) => ({ default: m.ThemeDialog })),
  ),
  userEdit: lazy(() =>
    feature('users', import('../features/users/index.ts')).then((m) => ({ default: m.UserEditDialog })),
  ),
  drivers: lazy(() =>
    feature('drivers', import('../features/drivers/index.ts')).then((m) => ({ default: m.DriversDialog })),
  ),
  calendars: lazy(() =>
    feature('calendars', import('../features/calendars/index.ts')).then((m) => ({
      default: m.CalendarsDialog,
    })),
  ),
  maintenances: lazy(() =>
    feature('maintenances', import('../features/maintenances/index.ts')).then((m) => ({
      default: m.MaintenancesDialog,
    })),
  ),
  invoices: lazy(() =>
    feature('billing', import('../features/billing/index.ts')).then((m) => ({ default: m.InvoicesDialog })),
  ),
  invoicesManager: lazy(() =>
    feature('billing', import('../features/billing/index.ts')).then((m) => ({
      default: m.InvoicesManagerDialog,
    })),
  ),
  integrations: lazy(() =>
    feature('billing', import('../features/billing/index.ts')).then((m) => ({
      default: m.IntegrationsDialog,
    })),
  ),
};
