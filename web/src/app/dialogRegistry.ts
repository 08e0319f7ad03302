// Dialog components by name, lazily loaded. Each feature adds ONE line here for its dialog:
//   deviceEdit: lazy(() => import('../features/devices/index.ts').then((m) => ({ default: m.DeviceEditDialog }))),
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DialogComponentProps } from '../shell/dialogs.ts';

export type RegisteredDialog = LazyExoticComponent<ComponentType<DialogComponentProps>>;

export const dialogRegistry: Record<string, RegisteredDialog> = {
  changelog: lazy(() =>
    import('../features/changelog/dialog.ts').then((m) => ({ default: m.ChangelogDialog })),
  ),
  deviceEdit: lazy(() =>
    import('../features/device-edit/index.ts').then((m) => ({ default: m.DeviceEditDialog })),
  ),
  deviceQr: lazy(() =>
    import('../features/device-edit/index.ts').then((m) => ({ default: m.DeviceQrDialog })),
  ),
  devicePrint: lazy(() =>
    import('../features/device-edit/index.ts').then((m) => ({ default: m.DeviceSheet })),
  ),
  sendCommand: lazy(() =>
    import('../features/commands/index.ts').then((m) => ({ default: m.SendCommandDialog })),
  ),
  deviceShare: lazy(() => import('../features/shares/index.ts').then((m) => ({ default: m.ShareDialog }))),
  linkObjects: lazy(() =>
    import('../features/link-objects/index.ts').then((m) => ({ default: m.LinkObjectsDialog })),
  ),
  shares: lazy(() => import('../features/shares/index.ts').then((m) => ({ default: m.SharesDialog }))),
  graphics: lazy(() => import('../features/telemetry/index.ts').then((m) => ({ default: m.GraphicsDialog }))),
  geofenceForm: lazy(() =>
    import('../features/geofences/index.ts').then((m) => ({ default: m.GeofenceFormDialog })),
  ),
  notifications: lazy(() =>
    import('../features/notifications/index.ts').then((m) => ({ default: m.NotificationsDialog })),
  ),
  events: lazy(() => import('../features/notifications/index.ts').then((m) => ({ default: m.EventsDialog }))),
  server: lazy(() =>
    import('../features/server-settings/index.ts').then((m) => ({ default: m.ServerSettingsDialog })),
  ),
  logObjects: lazy(() => import('../features/logs/index.ts').then((m) => ({ default: m.LogsDialog }))),
  theme: lazy(() => import('../features/theme/index.ts').then((m) => ({ default: m.ThemeDialog }))),
  userEdit: lazy(() => import('../features/users/index.ts').then((m) => ({ default: m.UserEditDialog }))),
  drivers: lazy(() => import('../features/drivers/index.ts').then((m) => ({ default: m.DriversDialog }))),
  calendars: lazy(() =>
    import('../features/calendars/index.ts').then((m) => ({ default: m.CalendarsDialog })),
  ),
  maintenances: lazy(() =>
    import('../features/maintenances/index.ts').then((m) => ({ default: m.MaintenancesDialog })),
  ),
  invoices: lazy(() => import('../features/billing/index.ts').then((m) => ({ default: m.InvoicesDialog }))),
  invoicesManager: lazy(() =>
    import('../features/billing/index.ts').then((m) => ({ default: m.InvoicesManagerDialog })),
  ),
  integrations: lazy(() =>
    import('../features/billing/index.ts').then((m) => ({ default: m.IntegrationsDialog })),
  ),
};
