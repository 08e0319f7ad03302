// Users (CONTRACT §4 POST /api/users, §6): registration, manager limits, the rules on who may change which
// user fields (userRules.ts: protected fields, the superior administrator, SPEC §5 numbers), write-only
// passwords. Nobody deletes its own account.
import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_NS,
  billingAttributeKeys,
  isReseller,
  keepAbsentFields,
  keptTotpKey,
  liftedRestrictions,
  restoreAttributes,
  roleAttributeKeys,
  userInput,
  type Attributes,
  type UserInput,
} from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { accountPolicy } from './accountPolicy.ts';
import { addLink, linkOwnerIdsAsync } from '../db/repos/links.ts';
import { anyUserAsync, deleteUserRow, insertUserRowAsync, userIdByEmailAsync } from '../db/repos/users.ts';
import { badRequest, denied, notFound } from '../errors.ts';
import {
  checkManager,
  checkNotOtherAdmin,
  checkSee,
  checkUserAccess,
  checkWrite,
  managedUserIds,
  permissionsChanged,
  restricted,
  serverSwitch,
  serverFlagsAsync,
} from './access.ts';
import {
  currentSessionId,
  endUserSessions,
  endUserSessionsIn,
  findUserAsync,
  getUser,
  requireUser,
  type UserRow,
} from './auth.ts';
import { hashPassword } from './passwordHash.ts';
import { generateTotpKey } from './totp.ts';
import { logAction, logLifted } from './audit.ts';
import { inTransaction } from '../db/repos/query.ts';
import { deleteLinksOf, getRowAsync, listQuery, selectRows, uniqueGuardAsync, updateRow } from './crud.ts';
import { edge, edgeBodyKeys, edgeValue, idParams, noBody } from '../edge.ts';
import { COLUMNS, domainUser, inputToRow, parseAttributes, userToJson, type Row } from './model.ts';
import { checkResellerFields, checkResellerUserCaps } from './resellers.ts';
import { checkDeleteTarget, checkEditTarget, checkProtectedFields, checkUserFields } from './userRules.ts';

/** Default device limit of self-registered users (Traccar's users.defaultDeviceLimit). */
export const DEFAULT_DEVICE_LIMIT = -1;

const FLAGS = [
  'readonly',
  'deviceReadonly',
  'disabled',
  'limitCommands',
  'disableReports',
  'fixedEmail',
] as const;

type UserLike = Pick<
  UserInput,
  'id' | 'administrator' | 'deviceLimit' | 'userLimit' | 'expirationTime' | 'email' | (typeof FLAGS)[number]
>;

const NEW_USER: UserLike = {
  id: 0,
  administrator: false,
  deviceLimit: 0,
  userLimit: 0,
  expirationTime: null,
  email: '',
  readonly: false,
  deviceReadonly: false,
  disabled: false,
  limitCommands: false,
  disableReports: false,
  fixedEmail: false,
};

function rowAsUserLike(row: UserRow): UserLike {
  return {
    id: row.id,
    administrator: !!row.administrator,
    deviceLimit: row.deviceLimit,
    userLimit: row.userLimit,
    expirationTime: row.expirationTime,
    email: row.email,
    readonly: !!row.readonly,
    deviceReadonly: !!row.deviceReadonly,
    disabled: !!row.disabled,
    limitCommands: !!row.limitCommands,
    disableReports: !!row.disableReports,
    fixedEmail: !!row.fixedEmail,
  };
}

const sameTime = (a: string | null, b: string | null) =>
  (a === null && b === null) || (a !== null && b !== null && Date.parse(a) === Date.parse(b));

/** Which user fields a non-admin caller (or anonymous registration) may change (CONTRACT §6). */
export function checkUserUpdate(
  caller: UserRow | null,
  before: UserLike,
  after: UserLike,
  ns: string = DEFAULT_NS,
): void {
  if (caller?.administrator) return;
  const needAdmin = () => {
    throw denied('Administrator access required');
  };
  if (before.administrator !== after.administrator) needAdmin();
  // limits: administrators; a reseller on another user is checked by checkProtectedFields (within its own, 403)
  const resellerOnOther = !!caller && caller.id !== after.id && isReseller(domainUser(caller), ns);
  if (
    !resellerOnOther &&
    (before.deviceLimit !== after.deviceLimit || before.userLimit !== after.userLimit)
  ) {
    needAdmin();
  }
  if (
    caller?.expirationTime &&
    !sameTime(before.expirationTime, after.expirationTime) &&
    (after.expirationTime === null || Date.parse(caller.expirationTime) < Date.parse(after.expirationTime))
  ) {
    needAdmin();
  }
  if (FLAGS.some((f) => before[f] !== after[f])) {
    if (!caller || caller.id === after.id) needAdmin();
    checkManager(caller!);
  }
  if (before.fixedEmail && before.email.toLowerCase() !== after.email.toLowerCase()) needAdmin();
}

const SELF_ATTRIBUTES = ['notificationTokens', 'termsAccepted'];

/** Readonly users may update themselves only to change notificationTokens / termsAccepted attributes. */
function onlySelfAttributesChanged(existing: UserRow, input: UserInput): boolean {
  if (input.password) return false;
  const before = userToJson(existing as unknown as Row, existing.id);
  const after = userToJson({ ...inputToRow(COLUMNS.users, input), id: existing.id } as Row, existing.id);
  for (const key of Object.keys(before)) {
    if (key === 'attributes') continue;
    const a = before[key];
    const b = after[key];
    if (key === 'expirationTime' ? !sameTime(a as string | null, b as string | null) : a !== b) return false;
  }
  const strip = (o: Record<string, unknown>) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(o)
          .filter(([k]) => !SELF_ATTRIBUTES.includes(k))
          .sort(),
      ),
    );
  return strip(parseAttributes(existing.attributes)) === strip(input.attributes as Record<string, unknown>);
}

async function noUsers(ctx: AppContext): Promise<boolean> {
  return !(await anyUserAsync(ctx.store.sql));
}

export interface NewUserValues extends Partial<UserInput> {
  name: string;
  email: string;
}

/** Inserts a user (hashing the password) and returns its row. Used by registration, shares and the seed. */
export async function insertUser(ctx: AppContext, values: NewUserValues): Promise<UserRow> {
  const input = userInput.parse({ ...values, password: values.password ?? null });
  const row = inputToRow(COLUMNS.users, input);
  row.hashedPassword = input.password ? await hashPassword(input.password) : null;
  const id = await uniqueGuardAsync(() => insertUserRowAsync(ctx.store.sql, row));
  return (await findUserAsync(ctx, id))!;
}

async function duplicateEmailCheck(ctx: AppContext, email: string, selfId: number): Promise<void> {
  if ((await userIdByEmailAsync(ctx.store.sql, email.trim(), selfId)) !== undefined)
    throw badRequest('Duplicate email');
}

export function registerUsers(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/users', edge({ query: listQuery, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    const q = edgeValue(listQuery, req.query);
    let ids: number[] | 'all';
    if (q.userId !== undefined) {
      await checkUserAccess(ctx, user, q.userId);
      ids = await managedUserIds(ctx, q.userId);
    } else if (q.deviceId !== undefined) {
      checkManager(user);
      await checkSee(ctx, user, 'device', q.deviceId);
      ids = await linkOwnerIdsAsync(ctx.store.sql, 'user', 'device', q.deviceId);
    } else {
      ids = user.administrator ? 'all' : await managedUserIds(ctx, user.id);
    }
    const rows = await selectRows(ctx, 'users', ids, {
      search: ['name', 'email', 'login'],
      sort: 'name',
      keyword: q.keyword,
      limit: q.limit,
      offset: q.offset,
    });
    return rows.map((r) => userToJson(r, user.id, q.excludeAttributes));
  });

  app.get('/api/users/:id', edge({ params: idParams, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    const { id } = edgeValue(idParams, req.params);
    await checkUserAccess(ctx, user, id);
    const row = await getRowAsync(ctx, 'users', id);
    if (!row) throw notFound(`User ${id} not found`);
    return userToJson(row, user.id);
  });

  // registration: callers not signed in create their own account (bad input answers them too)
  app.post('/api/users', edge({ body: userInput, need: 'table', anonymous: true }), async (req) => {
    const caller = await getUser(ctx, req);
    const input = { ...edgeValue(userInput, req.body) };
    const manager = !!caller && !caller.administrator && caller.userLimit !== 0;
    if (!caller?.administrator) {
      checkUserUpdate(caller, { ...NEW_USER }, input, ctx.config.ns);
      // Role attributes: none at self-registration; a manager gives no more than it has (userRules.ts).
      await checkProtectedFields(ctx, req, caller, null, input, !manager);
      input.attributes = restoreAttributes(
        {},
        input.attributes as Attributes,
        billingAttributeKeys(ctx.config.ns),
      ) as typeof input.attributes;
      if (caller && manager) {
        await checkWrite(ctx, caller);
        if (caller.userLimit > 0 && (await managedUserIds(ctx, caller.id)).length >= caller.userLimit) {
          throw denied('Manager user limit reached');
        }
        await checkResellerUserCaps(ctx, req, caller); // resellers above the caller count their whole subtree
      } else {
        if (caller) await checkWrite(ctx, caller);
        if (await noUsers(ctx)) {
          input.administrator = true;
        } else if (!(await serverFlagsAsync(ctx)).registration) {
          throw denied('Registration disabled');
        }
        if ((await serverSwitch(ctx, 'totpForce')) && !input.totpKey) {
          throw denied('One-time password key is required');
        }
        if (!input.password) throw badRequest('password: password is required');
        if (!input.administrator) input.deviceLimit = DEFAULT_DEVICE_LIMIT;
        input.temporary = false;
      }
    }
    // SPEC §5 user-form numbers for users created by an administrator or a manager (not self-registration).
    if (caller && (caller.administrator || manager)) checkUserFields(ctx, req, caller, input, null);
    await checkResellerFields(ctx, req, caller, input, 0);
    await duplicateEmailCheck(ctx, input.email, 0);
    const created = await insertUser(ctx, input);
    // Like Traccar, any creator with a user limit (managers, and admins with userLimit != 0) manages the new user.
    if (caller && caller.userLimit !== 0) {
      await addLink(ctx.store.sql, {
        ownerType: 'user',
        ownerId: caller.id,
        propertyType: 'managedUser',
        propertyId: created.id,
      });
      permissionsChanged(ctx);
    }
    await logAction(ctx, req, caller?.id ?? created.id, 'create', 'user', created.id);
    return userToJson(created as unknown as Row, caller?.id ?? created.id);
  });

  const putEdge = edge({ params: idParams, body: userInput, need: 'table' });
  app.put('/api/users/:id', putEdge, async (req) => {
    const caller = await requireUser(ctx, req);
    const { id } = edgeValue(idParams, req.params);
    const parsed = edgeValue(userInput, req.body);
    if (parsed.id !== id) throw badRequest('body id must equal the path id');
    await checkUserAccess(ctx, caller, id);
    const existing = await findUserAsync(ctx, id);
    if (!existing) throw notFound(`User ${id} not found`);
    // Fail closed (issue #27): fields left out keep what would otherwise lift a restriction (attributes included).
    const stored = domainUser(existing);
    const present = edgeBodyKeys(req);
    const input = keepAbsentFields('user', present, parsed, stored);
    // The TOTP secret: kept unless its user, or an administrator with "", removes it (domain keptTotpKey).
    const writer = caller.id === id ? 'self' : caller.administrator ? 'administrator' : 'other';
    const totp = keptTotpKey(writer, present.has('totpKey') ? parsed.totpKey : undefined, existing.totpKey);
    input.totpKey = totp.totpKey;
    checkNotOtherAdmin(caller, existing);
    await checkEditTarget(ctx, req, caller, existing);
    if (!caller.administrator) {
      if (
        (await restricted(ctx, caller, 'readonly')) &&
        !(caller.id === id && onlySelfAttributesChanged(existing, input))
      ) {
        throw denied('Write access denied');
      }
      checkUserUpdate(caller, rowAsUserLike(existing), input, ctx.config.ns);
      const self = caller.id === id;
      await checkProtectedFields(ctx, req, caller, existing, input, self);
      // Role attributes left out of a self-edit keep their stored value.
      if (self) {
        input.attributes = restoreAttributes(
          parseAttributes(existing.attributes) as Attributes,
          input.attributes as Attributes,
          roleAttributeKeys(ctx.config.ns),
        ) as typeof input.attributes;
      }
      input.attributes = accountPolicy(ctx).protectAttributes(
        ctx,
        existing.attributes,
        input.attributes,
      ) as typeof input.attributes;
    }
    checkUserFields(ctx, req, caller, input, existing);
    await checkResellerFields(ctx, req, caller, input, id);
    await duplicateEmailCheck(ctx, input.email, id);
    const values = inputToRow(COLUMNS.users, input);
    if (input.password) values.hashedPassword = await hashPassword(input.password);
    await updateRow(ctx, 'users', id, values);
    // A new password or e-mail ends the user's tokens and sessions (issue #27); one's own session stays.
    if (input.password || input.email.toLowerCase() !== existing.email.trim().toLowerCase()) {
      await endUserSessions(ctx, id, caller.id === id ? await currentSessionId(ctx, req) : null);
    }
    await logAction(ctx, req, caller.id, 'edit', 'user', id);
    const lifted = liftedRestrictions('user', stored, input, ctx.config.ns);
    await logLifted(ctx, req, caller.id, 'user', id, totp.cleared ? [...lifted, 'totpKey'] : lifted);
    return userToJson((await getRowAsync(ctx, 'users', id))!, caller.id);
  });

  app.delete('/api/users/:id', edge({ params: idParams, need: 'table' }), async (req, reply) => {
    const caller = await requireUser(ctx, req);
    const { id } = edgeValue(idParams, req.params);
    await checkWrite(ctx, caller);
    await checkUserAccess(ctx, caller, id);
    const target = await findUserAsync(ctx, id);
    if (!target) throw notFound(`User ${id} not found`);
    checkNotOtherAdmin(caller, target);
    await checkDeleteTarget(ctx, req, caller, target); // never oneself, never a superior administrator
    // the user, its links, sessions and tokens go together, or nothing does (issue #30: the write client on PostgreSQL)
    await inTransaction(ctx.store.sql, async (tx) => {
      await deleteUserRow(tx, id);
      await deleteLinksOf(tx, ['user', 'managedUser'], id);
      await endUserSessionsIn(tx, id);
    });
    ctx.bus.emit('signedOut', id); // its open sockets close, once nothing can sign it in again
    permissionsChanged(ctx);
    await logAction(ctx, req, caller.id, 'remove', 'user', id);
    return reply.status(204).send();
  });

  // Traccar answers a new key to anyone (the registration form offers one): public
  app.post('/api/users/totp', edge({ body: noBody, need: 'public' }), async (_req, reply) => {
    if (!(await serverSwitch(ctx, 'totpEnable'))) throw badRequest('One-time password is disabled');
    return reply.type('text/plain; charset=utf-8').send(generateTotpKey());
  });
}
