// Server side of the domain's user rules (packages/domain/src/userRules.ts): the superior administrator (the
// first administrator), the fields a non-administrator may not change, the SPEC §5 user-form numbers. Refusals
// are 403 in the caller's language (refusal.ts); bad input is 400 with the translated text (invalid.ts).
import type { FastifyRequest } from 'fastify';
import {
  protectedUserChanges,
  impersonationDenial,
  userDeleteDenial,
  userEditDenial,
  userFieldProblem,
  type Attributes,
  type PermissionContext,
  type RuleUser,
  type UserInput,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { firstAdministratorIdAsync } from '../db/repos/users.ts';
import { invalidInput } from '../invalid.ts';
import { refused } from '../refusal.ts';
import { isManagerOf, serverFlagsAsync } from './access.ts';
import type { UserRow } from './auth.ts';
import { domainUser, parseAttributes } from './model.ts';

type Req = Pick<FastifyRequest, 'headers'>;

/** The domain's superiorAdminId rule asked of the store: the lowest id with administrator = true, or null. */
function storedSuperiorAdminId(ctx: AppContext): Promise<number | null> {
  return firstAdministratorIdAsync(ctx.store.sql);
}

/** A stored user row as the domain rules read it. */
export function ruleUser(row: UserRow): RuleUser & { id: number } {
  return domainUser(row);
}

/** An input body (POST/PUT /api/users) as the domain rules read it. */
export function ruleInput(input: UserInput): RuleUser {
  return { ...input, attributes: input.attributes as RuleUser['attributes'] };
}

/** The caller's permission context: its flags and attributes, the server attributes, the Plus edition. */
export async function actorContext(ctx: AppContext, caller: UserRow | null): Promise<PermissionContext> {
  return {
    user: caller ? ruleUser(caller) : null,
    server: { attributes: parseAttributes((await serverFlagsAsync(ctx)).attributes) as Attributes },
    isPlus: ctx.config.edition === 'plus',
    ns: ctx.config.ns,
  };
}

const superiorOptions = async (ctx: AppContext, caller: UserRow, target: UserRow) => ({
  superiorId: await storedSuperiorAdminId(ctx),
  actorManagers: (await isManagerOf(ctx, target.id, caller.id)) ? [target.id] : [],
});

/** 403 unless `caller` may edit, suspend or impersonate `target` (not a superior administrator). */
export async function checkEditTarget(
  ctx: AppContext,
  req: Req,
  caller: UserRow,
  target: UserRow,
): Promise<void> {
  const options = await superiorOptions(ctx, caller, target);
  const denial = userEditDenial(ruleUser(caller), ruleUser(target), options);
  if (denial) throw refused(ctx, req, caller, denial);
}

/** 403 unless `caller` may log in as `target` (domain impersonationDenial: not oneself, a superior, disabled, expired). */
export async function checkImpersonationTarget(
  ctx: AppContext,
  req: Req,
  caller: UserRow,
  target: UserRow,
): Promise<void> {
  const denial = impersonationDenial(
    ruleUser(caller),
    ruleUser(target),
    await superiorOptions(ctx, caller, target),
  );
  if (denial) throw refused(ctx, req, caller, denial);
}

/** 403 unless `caller` may delete `target` (never oneself, never a superior administrator). */
export async function checkDeleteTarget(
  ctx: AppContext,
  req: Req,
  caller: UserRow,
  target: UserRow,
): Promise<void> {
  const options = await superiorOptions(ctx, caller, target);
  const denial = userDeleteDenial(ruleUser(caller), ruleUser(target), options);
  if (denial) throw refused(ctx, req, caller, denial);
}

/** 403 naming the first protected field the caller may not change (null `before` = a new user). */
export async function checkProtectedFields(
  ctx: AppContext,
  req: Req,
  caller: UserRow | null,
  before: UserRow | null,
  input: UserInput,
  self: boolean,
): Promise<void> {
  const changed = protectedUserChanges(before ? ruleUser(before) : null, ruleInput(input), {
    actor: await actorContext(ctx, caller),
    self,
  });
  if (changed.length) throw refused(ctx, req, caller, 'denied.protectedField', { field: changed[0] });
}

/** 400 with the translated SPEC §5 message when name, login or password break the user-form numbers. */
export function checkUserFields(
  ctx: AppContext,
  req: Req,
  caller: UserRow,
  input: UserInput,
  before: UserRow | null,
): void {
  const problem = userFieldProblem(input, before);
  if (problem) throw invalidInput(ctx, req, caller, problem.key);
}
