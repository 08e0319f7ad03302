// What a catalogue manager (drivers, calendars, maintenance, groups, saved commands, computed attributes,
// notification rules) offers the viewer: create, edit and delete ask the access table's advanced-permission bit of
// the area, and a read-only account (SPEC §6) gets none of them, as the server refuses its writes.
import { allows } from './access.ts';
import { isReadonly, type PermissionArea, type PermissionContext } from './permissions.ts';

export interface CatalogueRights {
  create: boolean;
  edit: boolean;
  delete: boolean;
}

export function catalogueRights(ctx: PermissionContext, area: PermissionArea): CatalogueRights {
  const writable = !isReadonly(ctx.user, ctx.server);
  return {
    create: writable && allows(ctx, `bit.${area}.create`),
    edit: writable && allows(ctx, `bit.${area}.edit`),
    delete: writable && allows(ctx, `bit.${area}.delete`),
  };
}
