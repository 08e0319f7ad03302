// Mounts every dialog opened with openDialog(name, props) (SPEC §2 "Global dialogs"). The registry has a component
// for every name openDialog accepts (the compiler checks both), so there is no unknown name to fall back on.
import { Suspense, type ComponentType } from 'react';
import { closeDialog, useDialogs, type DialogComponentProps } from '../shell/dialogs.ts';
import { dialogRegistry } from './dialogRegistry.ts';

export function DialogHost() {
  const open = useDialogs((s) => s.open);
  return (
    <>
      {open.map((d) => {
        // openDialog paired d.props with d.name; the union of the registry's components is too wide for JSX
        const Component = dialogRegistry[d.name] as ComponentType<DialogComponentProps>;
        return (
          <Suspense key={d.key} fallback={null}>
            <Component props={d.props} onClose={() => closeDialog(d.key)} />
          </Suspense>
        );
      })}
    </>
  );
}
