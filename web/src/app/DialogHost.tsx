// Mounts every dialog opened with openDialog(name, props) (SPEC §2 "Global dialogs").
import { lazy, Suspense } from 'react';
import { closeDialog, useDialogs } from '../shell/dialogs.ts';
import { dialogRegistry } from './dialogRegistry.ts';

const Unavailable = lazy(() => import('./UnavailableDialog.tsx').then((m) => ({ default: m.Unavailable })));

export function DialogHost() {
  const open = useDialogs((s) => s.open);
  return (
    <>
      {open.map((d) => {
        const Component = dialogRegistry[d.name];
        return (
          <Suspense key={d.key} fallback={null}>
            {Component ? (
              <Component props={d.props} onClose={() => closeDialog(d.key)} />
            ) : (
              <Unavailable dialog={d} />
            )}
          </Suspense>
        );
      })}
    </>
  );
}
