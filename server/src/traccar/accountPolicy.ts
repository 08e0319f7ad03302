// What the Traccar layer asks of account rules it does not own (billing, an extension, ext/billing): whether a
// sign-in is refused for a suspended account, and which attributes a non-administrator may not change. The
// extension passes its policy in at start (registerBilling), so this layer never imports the extensions
// (docs/architecture.md, server layers). Until one is set, nothing is refused and nothing is protected.
import type { AppContext } from '../context.ts';

export interface AccountPolicy {
  /** The 403 body refusing this user's sign-in, or null to let it in (it may read the store: asynchronous). */
  loginRefusal(
    ctx: AppContext,
    user: { id: number; administrator?: number | boolean | null; attributes?: string | null },
  ): Promise<object | null>;
  /** The attributes a non-administrator's PUT /api/users keeps as stored. */
  protectAttributes(
    ctx: AppContext,
    storedAttributes: unknown,
    input: Record<string, unknown>,
  ): Record<string, unknown>;
}

const NONE: AccountPolicy = {
  loginRefusal: () => Promise.resolve(null),
  protectAttributes: (_ctx, _stored, input) => input,
};

const policies = new WeakMap<AppContext, AccountPolicy>();

export function setAccountPolicy(ctx: AppContext, policy: AccountPolicy): void {
  policies.set(ctx, policy);
}

export const accountPolicy = (ctx: AppContext): AccountPolicy => policies.get(ctx) ?? NONE;
