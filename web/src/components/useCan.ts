// The access table (@rastro/domain access.ts, issue #28) for the signed-in session: whether a screen, menu entry or
// action is open to the viewer. Buttons and forms ask it so they are never offered to whom the server would refuse.
import {
  allows,
  catalogueRights,
  isReadonly,
  type Capability,
  type CatalogueRights,
  type PermissionArea,
  type PermissionContext,
} from '@rastro/domain';
import { useSession } from '../stores/session.ts';

/** The session as the access table reads it: user, server settings, licence and namespace. */
export function useViewer(): PermissionContext {
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  return { user, server, isPlus, ns };
}

export function useCan(capability: Capability): boolean {
  return allows(useViewer(), capability);
}

/** Create, edit and delete of one catalogue area (drivers, calendars, …) for the signed-in viewer. */
export function useCatalogueRights(area: PermissionArea): CatalogueRights {
  return catalogueRights(useViewer(), area);
}

/** Whether the viewer's account is read-only (SPEC §6): the server refuses its writes. */
export function useReadonly(): boolean {
  const { user, server } = useViewer();
  return isReadonly(user, server);
}
