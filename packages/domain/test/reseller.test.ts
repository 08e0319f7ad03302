import { describe, expect, it } from 'vitest';
import {
  applyReseller,
  canCreateResellers,
  emptyUserForm,
  isReseller,
  limitGrantAllowed,
  limitWithin,
  normalizeHost,
  parseUserForm,
  protectedUserChanges,
  readReseller,
  resellerDomainOf,
  resellerDomainProblem,
  resellerGrantProblem,
  subtreeLimitReached,
  userMenuEntries,
  userToForm,
  type User,
} from '../src/index.ts';

const R = (over: Partial<User> = {}, attrs: Record<string, unknown> = {}): User =>
  ({
    id: 10,
    name: 'Revenda',
    email: 'revenda',
    administrator: false,
    userLimit: 3,
    deviceLimit: 2,
    attributes: { 'rastro.reseller': true, 'rastro.resellerDomain': 'frota.example.com', ...attrs },
    ...over,
  }) as User;
const creator = R({}, { 'rastro.resellerCanCreate': true });

describe('reseller settings (SPEC §3: domain, limit, can create resellers)', () => {
  it('reads and writes the three attributes; off removes them all', () => {
    expect(readReseller(creator.attributes)).toEqual({
      enabled: true,
      domain: 'frota.example.com',
      canCreate: true,
    });
    expect(
      readReseller({ 'rastro.reseller': 'true', 'rastro.resellerDomain': ' Frota.Example.COM ' }),
    ).toEqual({
      enabled: true,
      domain: 'frota.example.com',
      canCreate: false,
    });
    const on = applyReseller({ other: 1 }, { enabled: true, domain: 'A.example.com', canCreate: false });
    expect(on).toEqual({ other: 1, 'rastro.reseller': true, 'rastro.resellerDomain': 'a.example.com' });
    expect(applyReseller(on, { enabled: false, domain: 'x.com', canCreate: true })).toEqual({ other: 1 });
  });

  it('a reseller is a manager (userLimit ≠ 0) with the flag; administrators and plain users are not', () => {
    expect(isReseller(R())).toBe(true);
    expect(isReseller(R({ userLimit: -1 }))).toBe(true);
    expect(isReseller(R({ userLimit: 0 }))).toBe(false);
    expect(isReseller(R({ administrator: true }))).toBe(false);
    expect(isReseller({ userLimit: 5, attributes: {} })).toBe(false);
    expect(canCreateResellers(R())).toBe(false);
    expect(canCreateResellers(creator)).toBe(true);
    expect(resellerDomainOf(R())).toBe('frota.example.com');
    expect(resellerDomainOf(R({ userLimit: 0 }))).toBe('');
  });

  it('domains are host names; the request host is normalised before lookup', () => {
    for (const ok of ['frota.example.com', 'localhost', 'rastreio-sul.com.br', 'a.b', '']) {
      expect(resellerDomainProblem(ok), ok).toBeNull();
    }
    for (const bad of [
      'http://frota.com',
      'frota.com/x',
      '-frota.com',
      'fro ta.com',
      '10.0.0.1',
      'a..b',
      'x'.repeat(254),
    ]) {
      expect(resellerDomainProblem(bad), bad).toBe('validation.resellerDomain');
    }
    expect(normalizeHost('Frota.Example.com:8082')).toBe('frota.example.com');
    expect(normalizeHost('frota.example.com.')).toBe('frota.example.com');
    expect(normalizeHost('127.0.0.1:8082')).toBe('');
    expect(normalizeHost('[::1]:8082')).toBe('');
    expect(normalizeHost(undefined)).toBe('');
  });
});

describe('limits a reseller gives (never more than its own)', () => {
  it('limitWithin: -1 unlimited gives anything; n gives 0…n; 0 gives only 0', () => {
    expect(limitWithin(-1, -1)).toBe(true);
    expect(limitWithin(-1, 500)).toBe(true);
    expect(limitWithin(3, 3)).toBe(true);
    expect(limitWithin(3, 0)).toBe(true);
    expect(limitWithin(3, 4)).toBe(false);
    expect(limitWithin(3, -1)).toBe(false);
    expect(limitWithin(0, 1)).toBe(false);
    expect(limitWithin(3, 1.5)).toBe(false);
  });

  it('device limits within its own; user limits only when it may create resellers; plain managers none', () => {
    expect(limitGrantAllowed(R(), 'deviceLimit', 2)).toBe(true);
    expect(limitGrantAllowed(R(), 'deviceLimit', 3)).toBe(false);
    expect(limitGrantAllowed(R(), 'userLimit', 1)).toBe(false);
    expect(limitGrantAllowed(creator, 'userLimit', 3)).toBe(true);
    expect(limitGrantAllowed(creator, 'userLimit', 4)).toBe(false);
    expect(limitGrantAllowed({ userLimit: 5, deviceLimit: -1, attributes: {} }, 'deviceLimit', 1)).toBe(
      false,
    );
    expect(limitGrantAllowed({ administrator: true }, 'userLimit', -1)).toBe(true);
  });

  it('reseller settings change only by administrators or resellers that may create resellers', () => {
    const off = {};
    const on = { 'rastro.reseller': true };
    expect(resellerGrantProblem(R(), off, on)).toBe('validation.resellerCreateDenied');
    expect(resellerGrantProblem(creator, off, on)).toBeNull();
    expect(resellerGrantProblem({ administrator: true }, off, on)).toBeNull();
    expect(resellerGrantProblem(R(), on, { ...on, 'rastro.resellerDomain': 'x.com' })).toBe(
      'validation.resellerCreateDenied',
    );
    expect(resellerGrantProblem(R(), { other: 1 }, { other: 2 })).toBeNull();
  });

  it('subtree caps use Traccar meanings: -1 never reached, 0 always, n at n', () => {
    expect(subtreeLimitReached(-1, 10_000)).toBe(false);
    expect(subtreeLimitReached(0, 0)).toBe(true);
    expect(subtreeLimitReached(3, 2)).toBe(false);
    expect(subtreeLimitReached(3, 3)).toBe(true);
  });

  it('protectedUserChanges: a reseller on a sub-user, within its limits, changes nothing protected', () => {
    const actor = { user: creator, server: null, isPlus: true, ns: 'rastro' };
    const sub = R({ id: 11, userLimit: 0, deviceLimit: 0 }, {});
    sub.attributes = {};
    expect(
      protectedUserChanges(sub, { ...sub, userLimit: 2, deviceLimit: 2 }, { actor, self: false }),
    ).toEqual([]);
    expect(protectedUserChanges(sub, { ...sub, deviceLimit: 5 }, { actor, self: false })).toEqual([
      'deviceLimit',
    ]);
    const plain = { ...actor, user: R() };
    expect(
      protectedUserChanges(
        sub,
        { ...sub, attributes: { 'rastro.reseller': true } },
        { actor: plain, self: false },
      ),
    ).toEqual(['rastro.reseller']);
    // on itself nobody (but administrators) changes reseller settings
    expect(
      protectedUserChanges(
        creator,
        { ...creator, attributes: { ...creator.attributes, 'rastro.resellerDomain': 'x.com' } },
        {
          actor,
          self: true,
        },
      ),
    ).toContain('rastro.resellerDomain');
  });
});

describe('user form and menu', () => {
  const admin = { user: { id: 1, administrator: true }, server: null, isPlus: true, ns: 'rastro' };

  it('an administrator makes a reseller: the attributes are written; a bad domain or no user limit are errors', () => {
    const v = {
      ...emptyUserForm(true),
      name: 'Revenda Sul',
      email: 'revenda-sul',
      password: 'secret',
      confirmPassword: 'secret',
      userLimit: '10',
      reseller: true,
      resellerDomain: 'Sul.Example.com',
      resellerCanCreate: true,
    };
    const r = parseUserForm(v, { mode: 'create', actor: admin, permissions: true });
    expect(r.ok && r.user.attributes).toEqual({
      'rastro.reseller': true,
      'rastro.resellerDomain': 'sul.example.com',
      'rastro.resellerCanCreate': true,
    });
    const bad = parseUserForm(
      { ...v, resellerDomain: 'http://x' },
      { mode: 'create', actor: admin, permissions: true },
    );
    expect(!bad.ok && bad.errors.resellerDomain).toBe('validation.resellerDomain');
    const noLimit = parseUserForm(
      { ...v, userLimit: '0' },
      { mode: 'create', actor: admin, permissions: true },
    );
    expect(!noLimit.ok && noLimit.errors.userLimit).toBe('validation.resellerNeedsUserLimit');
    expect(userToForm(R({}, { 'rastro.resellerCanCreate': true }))).toMatchObject({
      reseller: true,
      resellerDomain: 'frota.example.com',
      resellerCanCreate: true,
    });
  });

  it('a reseller gives limits within its own; beyond is "the limit cannot exceed your own"', () => {
    const actor = { user: creator, server: null, isPlus: true, ns: 'rastro' };
    const v = {
      ...emptyUserForm(false),
      name: 'Cliente',
      email: 'cliente',
      password: 'secret',
      confirmPassword: 'secret',
      deviceLimit: '2',
      userLimit: '0',
    };
    expect(parseUserForm(v, { mode: 'create', actor, permissions: true }).ok).toBe(true);
    const over = parseUserForm({ ...v, deviceLimit: '3' }, { mode: 'create', actor, permissions: true });
    expect(!over.ok && over.errors.deviceLimit).toBe('validation.limitBeyondOwn');
    const plain = parseUserForm(v, {
      mode: 'create',
      actor: { ...actor, user: { id: 5, userLimit: 5, deviceLimit: -1, attributes: {} } },
      permissions: true,
    });
    expect(!plain.ok && plain.errors.deviceLimit).toBe('users:errors.adminOnly');
  });

  it('the theme entry is shown to administrators and to resellers with a domain (Plus)', () => {
    expect(userMenuEntries({ ...admin, user: R() })).toContain('theme');
    expect(userMenuEntries({ ...admin, user: R({}, { 'rastro.resellerDomain': '' }) })).not.toContain(
      'theme',
    );
    expect(userMenuEntries({ ...admin, isPlus: false, user: R() })).not.toContain('theme');
    expect(userMenuEntries(admin)).toContain('theme');
  });
});
