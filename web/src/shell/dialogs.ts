// The global dialog host (SPEC §2 "Global dialogs"). Anyone opens a dialog by name:
//   openDialog('deviceEdit', { deviceId: 7 });
// Features register their dialog components in dialogRegistry.ts (one line each).
import { create } from 'zustand';

/** Names of the globally mounted dialogs of SPEC §2. */
export const DIALOG_NAMES = [
  'calendars',
  'linkObjects',
  'logObjects',
  'shares',
  'groups',
  'server',
  'drivers',
  'maintenances',
  'theme',
  'invoices',
  'invoicesManager',
  'integrations',
  'userEdit',
  'usersEdit',
  'notifications',
  'events',
  'deviceEdit',
  'deviceQr',
  'graphics',
  'changelog',
] as const;
export type DialogName = (typeof DIALOG_NAMES)[number] | (string & {});

export type DialogProps = Record<string, unknown>;

/** What a registered dialog component receives. */
export interface DialogComponentProps {
  /** Closes this dialog. */
  onClose(): void;
  /** The props given to openDialog. */
  props: DialogProps;
}

export interface OpenDialog {
  key: number;
  name: DialogName;
  props: DialogProps;
}

interface DialogState {
  open: OpenDialog[];
}

let nextKey = 1;

export const useDialogs = create<DialogState>(() => ({ open: [] }));

/** Opens a dialog by name; returns its key (for closeDialog). */
export function openDialog(name: DialogName, props: DialogProps = {}): number {
  const key = nextKey++;
  useDialogs.setState((s) => ({ open: [...s.open, { key, name, props }] }));
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
