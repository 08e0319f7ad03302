// Who is a monitoring operator (issue #32, docs/monitoring.md "Who"): read by the alarms routes (alarms.ts
// alarmActDenial) and by the access table's `screen.monitoring` (the /monitoring desk). Its own small module,
// without zod, so the router guard's chunk (access.ts) can ask it.
import { nsKey } from './attributes.ts';
import { isQrDriver, isShared, permissionBit, type PermissionContext } from './permissions.ts';

/** The opt-in bits of the monitoring desk (PERMISSION_LAYOUT.monitoring): view the desk, act on alarms. */
const MONITORING_VIEW_BIT = 112;
export const MONITORING_ACT_BIT = 113;

/**
 * A monitoring operator: an administrator, or a user whose permission string has the monitoring bit. Unlike the
 * other areas the bit is opt-in (a customer without a permission string is not an operator), and it is read
 * whether or not the server enables advanced permissions. Guests and QR drivers never.
 */
export function isMonitoringOperator(ctx: PermissionContext): boolean {
  const user = ctx.user;
  if (!user || isShared(user) || isQrDriver(user, ctx.ns)) return false;
  if (user.administrator) return true;
  return permissionBit(user.attributes?.[nsKey(ctx.ns ?? 'rastro', 'advancedPerms')], MONITORING_VIEW_BIT);
}
