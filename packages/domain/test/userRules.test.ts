import { describe, expect, it } from 'vitest';
import type { PermissionContext } from '../src/permissions.ts';
import {
  impersonationDenial,
  inheritedUserDefaults,
  isSuperiorAdmin,
  protectedUserChanges,
  restoreAttributes,
  superiorAdminId,
  userDeleteDenial,
  userEditDenial,
  userFieldProblem,
  type RuleUser,
} from '../src/userRules.ts';

const plus = (user: RuleUser, advanced = true): PermissionContext => ({
  user,
  server: { attributes: { 'rastro.enableAdvancedPerms': advanced } },
  isPlus: true,
  ns: 'rastro',
});

describe('superior administrator', () => {
  const first = { id: 1, administrator: true, attributes: {} };
  const second = { id: 4, administrator: true, attributes: {} };
  const third = { id: 9, administrator: true, attributes: {} };
  const plain = { id: 5, attributes: {} };

  it('is the administrator with the lowest id', () => {
    expect(superiorAdminId([plain, third, second, first])).toBe(1);
    expect(superiorAdminId([plain])).toBeNull();
  });

  it('another administrator cannot edit or delete it; it edits the others; nobody deletes itself', () => {
    const o = { superiorId: 1 };
    expect(userEditDenial(second, first, o)).toBe('validation.cannotEditSuperiorAdmin');
    expect(userDeleteDenial(second, first, o)).toBe('validation.cannotEditSuperiorAdmin');
    expect(userEditDenial(first, second, o)).toBeNull();
    expect(userDeleteDenial(first, second, o)).toBeNull();
    expect(userEditDenial(third, second, o)).toBeNull();
    expect(userEditDenial(first, first, o)).toBeNull();
    expect(userDeleteDenial(first, first, o)).toBe('validation.cannotDeleteSelf');
    expect(userDeleteDenial(plain, plain, o)).toBe('validation.cannotDeleteSelf');
  });

  it('an administrator managing the actor is superior to it; any administrator is superior to a non-admin', () => {
    expect(isSuperiorAdmin(third, second, { superiorId: 1, actorManagers: [4] })).toBe(true);
    expect(isSuperiorAdmin({ ...third, managerId: 4 }, second, { superiorId: 1 })).toBe(true);
    expect(isSuperiorAdmin(plain, second)).toBe(true);
    expect(isSuperiorAdmin(third, plain, { superiorId: 1 })).toBe(false);
  });
});

describe('protectedUserChanges', () => {
  const user: RuleUser = { id: 7, userLimit: 0, deviceLimit: -1, attributes: { 'rastro.isQrDriverId': 3 } };

  it('oneself: every protected field and role attribute; absent role attributes are no change', () => {
    const self = { actor: plus(user), self: true };
    expect(protectedUserChanges(user, { ...user }, self)).toEqual([]);
    expect(protectedUserChanges(user, { ...user, attributes: {} }, self)).toEqual([]);
    expect(
      protectedUserChanges(user, { ...user, attributes: { 'rastro.isQrDriverId': null } }, self),
    ).toEqual(['rastro.isQrDriverId']);
    expect(
      protectedUserChanges(
        user,
        {
          ...user,
          expirationTime: '2030-01-01T00:00:00Z',
          attributes: { 'rastro.advancedPerms': 'f'.repeat(32) },
        },
        self,
      ),
    ).toEqual(['expirationTime', 'rastro.advancedPerms']);
    expect(protectedUserChanges(user, { ...user, disabled: true, userLimit: 1 }, self)).toEqual([
      'disabled',
      'userLimit',
    ]);
  });

  it('the same instant written differently is no change of expirationTime', () => {
    const u = { ...user, expirationTime: '2030-01-01T00:00:00.000Z' };
    expect(
      protectedUserChanges(
        u,
        { ...u, expirationTime: '2030-01-01T00:00:00Z' },
        { actor: plus(u), self: true },
      ),
    ).toEqual([]);
  });

  it('administrators change anything', () => {
    const admin = { id: 1, administrator: true };
    expect(
      protectedUserChanges(
        user,
        { ...user, administrator: true, readonly: true },
        { actor: plus(admin), self: false },
      ),
    ).toEqual([]);
  });

  it('a manager keeps its own restrictions on its sub-users and gives no bits it lacks', () => {
    const manager: RuleUser = {
      id: 2,
      userLimit: 5,
      limitCommands: true,
      attributes: { 'rastro.advancedPerms': 'ff000000000000000000000000000000' },
    };
    const c = { actor: plus(manager), self: false };
    const sub: RuleUser = {
      id: 8,
      limitCommands: true,
      attributes: { 'rastro.advancedPerms': 'f0000000000000000000000000000000' },
    };
    expect(protectedUserChanges(sub, { ...sub, readonly: true }, c)).toEqual([]);
    expect(protectedUserChanges(sub, { ...sub, limitCommands: false }, c)).toEqual(['limitCommands']);
    expect(protectedUserChanges(null, { ...sub, limitCommands: false }, c)).toEqual(['limitCommands']);
    expect(protectedUserChanges(sub, { ...sub, administrator: true, deviceLimit: 3 }, c)).toEqual([
      'administrator',
      'deviceLimit',
    ]);
    const perms = (p: string | undefined) => ({ ...sub, attributes: p ? { 'rastro.advancedPerms': p } : {} });
    expect(protectedUserChanges(sub, perms('ff000000000000000000000000000000'), c)).toEqual([]);
    expect(protectedUserChanges(sub, perms('ff800000000000000000000000000000'), c)).toEqual([
      'rastro.advancedPerms',
    ]);
    // No string = every bit; a malformed one = none.
    expect(protectedUserChanges(sub, perms(undefined), c)).toEqual(['rastro.advancedPerms']);
    expect(protectedUserChanges(sub, perms('nonsense'), c)).toEqual([]);
    // Bits the sub-user already had are not "given".
    const rich = perms('0000000000000000000000000000000f');
    expect(protectedUserChanges(rich, { ...rich, disabled: true }, c)).toEqual([]);
    // Advanced permissions off (or a basic server): the string does not bind the manager.
    expect(protectedUserChanges(sub, perms(undefined), { actor: plus(manager, false), self: false })).toEqual(
      [],
    );
    expect(
      protectedUserChanges(sub, perms(undefined), {
        actor: { ...plus(manager), isPlus: false },
        self: false,
      }),
    ).toEqual([]);
  });
});

describe('restoreAttributes and inheritedUserDefaults', () => {
  it('puts back the stored value of each key, or removes it', () => {
    expect(restoreAttributes({ a: 1, keep: 2 }, { a: 9, b: 3, c: 4 }, ['a', 'b'])).toEqual({ a: 1, c: 4 });
  });

  it('a manager’s new user starts with its restrictions and canonical permission string', () => {
    expect(
      inheritedUserDefaults({
        readonly: true,
        attributes: { 'rastro.advancedPerms': 'FF000000-00000000-00000000-00000000' },
      }),
    ).toEqual({
      readonly: true,
      deviceReadonly: false,
      limitCommands: false,
      advancedPerms: 'ff000000000000000000000000000000',
    });
    expect(inheritedUserDefaults(null).advancedPerms).toBe('');
  });
});

describe('userFieldProblem (SPEC §5 numbers)', () => {
  const ok = { name: 'Ana', email: 'a@xy', password: 'abcd' };
  it('create: name 2 vs 3, login 3 vs 4, password 3 vs 4 and required', () => {
    expect(userFieldProblem(ok, null)).toBeNull();
    expect(userFieldProblem({ ...ok, name: 'An' }, null)).toEqual({
      field: 'name',
      key: 'validation.nameMinLength',
    });
    expect(userFieldProblem({ ...ok, email: 'abc' }, null)).toEqual({
      field: 'email',
      key: 'validation.emailMinLength',
    });
    expect(userFieldProblem({ ...ok, password: 'abc' }, null)).toEqual({
      field: 'password',
      key: 'validation.passwordMinLength',
    });
    expect(userFieldProblem({ ...ok, password: null }, null)).toEqual({
      field: 'password',
      key: 'validation.passwordRequired',
    });
    // A login need not be an e-mail address (Traccar logins).
    expect(userFieldProblem({ ...ok, email: 'x@y' + 'z' }, null)).toBeNull();
  });

  it('edit: only changed values and a sent password are checked', () => {
    const before = { name: 'Al', email: 'abc' };
    expect(userFieldProblem({ ...before, password: null }, before)).toBeNull();
    expect(userFieldProblem({ ...before, name: 'Bo', password: '' }, before)).toEqual({
      field: 'name',
      key: 'validation.nameMinLength',
    });
    expect(userFieldProblem({ ...before, password: 'abc' }, before)?.key).toBe(
      'validation.passwordMinLength',
    );
  });
});

describe('impersonationDenial (log in as, SPEC §6)', () => {
  const admin = { id: 2, administrator: true };
  const superior = { superiorId: 1 };
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('lets an administrator log in as an active ordinary user', () => {
    expect(impersonationDenial(admin, { id: 5 }, superior, now)).toBeNull();
    expect(
      impersonationDenial(admin, { id: 5, expirationTime: '2027-01-01T00:00:00Z' }, superior, now),
    ).toBeNull();
  });
  it('refuses oneself, the superior administrator, a disabled and an expired user', () => {
    expect(impersonationDenial(admin, { id: 2, administrator: true }, superior, now)).toBe(
      'validation.loginAsSelf',
    );
    expect(impersonationDenial(admin, { id: 1, administrator: true }, superior, now)).toBe(
      'validation.cannotEditSuperiorAdmin',
    );
    expect(impersonationDenial(admin, { id: 5, disabled: true }, superior, now)).toBe(
      'validation.loginAsDisabled',
    );
    expect(impersonationDenial(admin, { id: 5, expirationTime: '2025-12-31T00:00:00Z' }, superior, now)).toBe(
      'validation.loginAsExpired',
    );
  });
});
