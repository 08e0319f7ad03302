// The global host of SPEC §2 "Global dialogs". Anyone opens a dialog by name, its props checked by the compiler:
//   openDialog('deviceEdit', { deviceId: 7 });
// DialogPropsByName is the one list of names and what each takes; app/dialogRegistry.ts maps every name to its
// component (the compiler refuses a name without a component, a component for an unknown name, and a component
// whose props do not match its name).
import { create } from 'zustand';
import type { GeofenceFormValues } from '@rastro/domain';

/** A dialog opened without props. */
type NoProps = Record<string, never>;

/** Every global dialog by name, with the props openDialog passes to it. */
export interface DialogPropsByName {
  calendars: NoProps;
  changelog: NoProps;
  deviceEdit: { deviceId?: number };
  devicePrint: { deviceId: number };
  deviceQr: { deviceId: number };
  deviceShare: { deviceId: number };
  drivers: NoProps;
  events: NoProps;
  geofenceForm: { form: GeofenceFormValues };
  graphics: { deviceId: number };
  integrations: NoProps;
  invoices: NoProps;
  invoicesManager: { userId?: number };
  linkObjects: { owner: 'device' | 'group' | 'user'; id: number; name?: string };
  logObjects: NoProps;
  maintenances: NoProps;
  notifications: NoProps;
  sendCommand: { deviceId: number };
  server: NoProps;
  shares: NoProps;
  theme: NoProps;
  userEdit: { userId?: number };
}

export type DialogName = keyof DialogPropsByName;

/** What a registered dialog component receives: a way to close itself and the props given to openDialog. */
export interface DialogProps<P> {
  /** Closes this dialog. */
  onClose(): void;
  /** The props given to openDialog. */
  props: P;
}

/**
 * The props of a dialog component: `DialogComponentProps<'graphics'>` types those of that name; without a name they
 * are any record (a dialog that reads none, or checks them itself).
 */
export type DialogComponentProps<N extends DialogName | null = null> = DialogProps<
  N extends DialogName ? DialogPropsByName[N] : Readonly<Record<string, unknown>>
>;

/** An open dialog: its key, its name and that name's props. */
export type OpenDialog = {
  [N in DialogName]: { key: number; name: N; props: DialogPropsByName[N] };
}[DialogName];

interface DialogState {
  open: OpenDialog[];
}

let nextKey = 1;

export const useDialogs = create<DialogState>(() => ({ open: [] }));

/** The props argument of openDialog: optional when the dialog needs none. */
type PropsArgument<N extends DialogName> =
  Record<string, never> extends DialogPropsByName[N]
    ? [props?: DialogPropsByName[N]]
    : [props: DialogPropsByName[N]];

/** Opens a dialog by name; returns its key (for closeDialog). */
export function openDialog<N extends DialogName>(name: N, ...[props]: PropsArgument<N>): number {
  const key = nextKey++;
  // props ?? {}: a name whose props are all optional may be opened without them
  const entry = { key, name, props: props ?? {} } as OpenDialog;
  useDialogs.setState((s) => ({ open: [...s.open, entry] }));
  return key;
}

/** Closes one dialog by key, or every dialog of a name. */
export function closeDialog(keyOrName: number | DialogName): void {
  useDialogs.setState((s) => ({
    open: s.open.filter((d) => (typeof keyOrName === 'number' ? d.key !== keyOrName : d.name !== keyOrName)),
  }));
}

export function closeAllDialogs(): void {
  useDialogs.setState({ open: [] });
}
