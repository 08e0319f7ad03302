// Resellers on the server (packages/domain/src/reseller.ts has the rules): the subtree a reseller manages (users
// reachable through managedUser links, RESELLER_MAX_DEPTH levels, cycles ignored), the caps its userLimit and
// deviceLimit put on that subtree, and the domain checks (format, one reseller per domain). Access checks in
// access.ts ask `managesInSubtree` so a reseller lists, edits, impersonates and links its whole subtree.
import type { FastifyRequest } from 'fastify';
import {
  isReseller,
  readReseller,
  RESELLER_MAX_DEPTH,
  resellerDomainProblem,
  subtreeLimitReached,
  type Attributes,
  type UserInput,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { distinctDevicesOfAsync, managedSubtreeIdsAsync, selfAndManagerIdsAsync } from '../db/repos/links.ts';
import { findUsersByIdsAsync, usersWithAttributeAsync } from '../db/repos/users.ts';
import { jsonField } from '../db/sql.ts';
import { invalidInput } from '../invalid.ts';
import { refused } from '../refusal.ts';
import type { UserRow } from './auth.ts';
import { domainUser } from './model.ts';

type Req = Pick<FastifyRequest, 'headers'>;

export const rowIsReseller = (ctx: AppContext, row: UserRow | null | undefined): boolean =>
  !!row && isReseller(domainUser(row), ctx.config.ns);

/** Every user below `rootId` (not itself) through managedUser links, on the read pool. */
export function subtreeUserIds(ctx: AppContext, rootId: number): Promise<number[]> {
  return managedSubtreeIdsAsync(ctx.store.sql, rootId, RESELLER_MAX_DEPTH);
}

/** Resellers among the user itself and its managers, at any level (nearest first), on the read pool. */
export async function resellersAbove(ctx: AppContext, userId: number): Promise<UserRow[]> {
  const ids = await selfAndManagerIdsAsync(ctx.store.sql, userId, RESELLER_MAX_DEPTH);
  const rows = await findUsersByIdsAsync(ctx.store.sql, ids);
  return rows.filter((r) => rowIsReseller(ctx, r));
}

/** Whether `user` is a reseller with `targetId` somewhere in its subtree. */
export async function managesInSubtree(ctx: AppContext, user: UserRow, targetId: number): Promise<boolean> {
  if (!rowIsReseller(ctx, user) || user.id === targetId) return false;
  return (await resellersAbove(ctx, targetId)).some((r) => r.id === user.id);
}

/** Devices linked directly to the reseller or to any user of its subtree. */
export async function subtreeDeviceCount(ctx: AppContext, resellerId: number): Promise<number> {
  const owners = [resellerId, ...(await subtreeUserIds(ctx, resellerId))];
  return distinctDevicesOfAsync(ctx.store.sql, owners);
}

/** 403 `User limit reached` when a new user under `creator` would pass a reseller's userLimit above it. */
export async function checkResellerUserCaps(ctx: AppContext, req: Req, creator: UserRow): Promise<void> {
  for (const r of await resellersAbove(ctx, creator.id)) {
    if (subtreeLimitReached(r.userLimit, (await subtreeUserIds(ctx, r.id)).length)) {
      throw refused(ctx, req, creator, 'validation.userLimitReached');
    }
  }
}

/** 403 `Device limit reached` when a new device of `owner` would pass a reseller's deviceLimit above it. */
export async function checkResellerDeviceCaps(ctx: AppContext, req: Req, owner: UserRow): Promise<void> {
  for (const r of await resellersAbove(ctx, owner.id)) {
    if (subtreeLimitReached(r.deviceLimit, await subtreeDeviceCount(ctx, r.id))) {
      throw refused(ctx, req, owner, 'validation.deviceLimitReached');
    }
  }
}

/** The reseller (id) whose domain is `host`, if any. */
export async function resellerOfDomain(ctx: AppContext, host: string): Promise<number | null> {
  if (!host) return null;
  const domain = jsonField(ctx.store.sql.dialect, 'attributes', `${ctx.config.ns}.resellerDomain`);
  const rows = await usersWithAttributeAsync(ctx.store.sql, domain, host);
  return rows.find((r) => rowIsReseller(ctx, r))?.id ?? null;
}

/** 400 (translated) for a bad reseller domain, a domain another user holds, or a reseller without userLimit. */
export async function checkResellerFields(
  ctx: AppContext,
  req: Req,
  caller: UserRow | null,
  input: UserInput,
  selfId: number,
): Promise<void> {
  const settings = readReseller(input.attributes as Attributes, ctx.config.ns);
  if (!settings.enabled) return;
  const problem = resellerDomainProblem(settings.domain);
  if (problem) throw invalidInput(ctx, req, caller, problem);
  if (!input.administrator && input.userLimit === 0)
    throw invalidInput(ctx, req, caller, 'validation.resellerNeedsUserLimit');
  if (settings.domain) {
    const domain = jsonField(ctx.store.sql.dialect, 'attributes', `${ctx.config.ns}.resellerDomain`);
    const other = (await usersWithAttributeAsync(ctx.store.sql, domain, settings.domain, selfId)).length > 0;
    if (other) throw invalidInput(ctx, req, caller, 'validation.resellerDomainTaken');
  }
}
