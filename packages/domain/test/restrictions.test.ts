// Fail closed (issue #27): which edits of the server or a user lift a restriction, and which fields a partial body
// leaves as stored.
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, NO_PERMISSIONS, setPermissionBit } from '../src/permissions.ts';
import { keepAbsentFields, keptTotpKey, liftedRestrictions, RESTRICTION_FLAGS } from '../src/restrictions.ts';

const ADV = 'rastro.enableAdvancedPerms';
const PERMS = 'rastro.advancedPerms';

describe('liftedRestrictions: the server', () => {
  it('turning enableAdvancedPerms off lifts it; on, or left on, or in another namespace does not', () => {
    expect(liftedRestrictions('server', { attributes: { [ADV]: true } }, { attributes: {} })).toEqual([ADV]);
    expect(
      liftedRestrictions('server', { attributes: { [ADV]: 'true' } }, { attributes: { [ADV]: false } }),
    ).toEqual([ADV]);
    expect(liftedRestrictions('server', { attributes: {} }, { attributes: { [ADV]: true } })).toEqual([]);
    expect(
      liftedRestrictions('server', { attributes: { [ADV]: true } }, { attributes: { [ADV]: true } }),
    ).toEqual([]);
    expect(
      liftedRestrictions(
        'server',
        { attributes: { 'x.enableAdvancedPerms': true } },
        { attributes: {} },
        'x',
      ),
    ).toEqual(['x.enableAdvancedPerms']);
  });

  it('each flag turned off is named; turned on is not', () => {
    for (const f of RESTRICTION_FLAGS) {
      expect(liftedRestrictions('server', { [f]: true }, { [f]: false })).toEqual([f]);
      expect(liftedRestrictions('server', { [f]: false }, { [f]: true })).toEqual([]);
    }
    expect(
      liftedRestrictions(
        'server',
        { readonly: true, disableReports: true, attributes: { [ADV]: true } },
        { readonly: false, disableReports: false },
      ),
    ).toEqual(['readonly', 'disableReports', ADV]);
  });

  it("a user's fields on the server are not looked at", () => {
    expect(liftedRestrictions('server', { disabled: true, deviceLimit: 0 }, { deviceLimit: -1 })).toEqual([]);
  });
});

describe('liftedRestrictions: a user', () => {
  it('flags and disabled turned off, administrator turned on', () => {
    expect(
      liftedRestrictions(
        'user',
        { readonly: true, limitCommands: true, disabled: true },
        { readonly: false, limitCommands: true, disabled: false, administrator: true },
      ),
    ).toEqual(['readonly', 'disabled', 'administrator']);
    expect(liftedRestrictions('user', { administrator: true }, { readonly: true })).toEqual([]);
  });

  it('limits raised (−1 is unlimited); lowered or unchanged is not a lift', () => {
    expect(liftedRestrictions('user', { deviceLimit: 5 }, { deviceLimit: 6 })).toEqual(['deviceLimit']);
    expect(liftedRestrictions('user', { deviceLimit: 5 }, { deviceLimit: -1 })).toEqual(['deviceLimit']);
    expect(liftedRestrictions('user', { userLimit: 0 }, { userLimit: 3 })).toEqual(['userLimit']);
    expect(liftedRestrictions('user', { deviceLimit: -1 }, { deviceLimit: 10 })).toEqual([]);
    expect(liftedRestrictions('user', { deviceLimit: 5 }, { deviceLimit: 2 })).toEqual([]);
    expect(liftedRestrictions('user', { userLimit: 3 }, { userLimit: 3 })).toEqual([]);
  });

  it('an expiration time moved later or removed; earlier or newly set is not a lift', () => {
    const jan = '2030-01-01T00:00:00.000Z';
    const feb = '2030-02-01T00:00:00.000Z';
    expect(liftedRestrictions('user', { expirationTime: jan }, { expirationTime: feb })).toEqual([
      'expirationTime',
    ]);
    expect(liftedRestrictions('user', { expirationTime: jan }, { expirationTime: null })).toEqual([
      'expirationTime',
    ]);
    expect(liftedRestrictions('user', { expirationTime: feb }, { expirationTime: jan })).toEqual([]);
    expect(liftedRestrictions('user', { expirationTime: null }, { expirationTime: jan })).toEqual([]);
  });

  it('advancedPerms granting a bit it did not grant (no string = every bit, malformed = none)', () => {
    const one = setPermissionBit(NO_PERMISSIONS, 10, true);
    const two = setPermissionBit(one, 11, true);
    const lifted = (before: unknown, after: unknown) =>
      liftedRestrictions(
        'user',
        { attributes: before === undefined ? {} : { [PERMS]: before } },
        { attributes: after === undefined ? {} : { [PERMS]: after } },
      );
    expect(lifted(one, two)).toEqual([PERMS]);
    expect(lifted(NO_PERMISSIONS, undefined)).toEqual([PERMS]);
    expect(lifted(one, '')).toEqual([PERMS]);
    expect(lifted('not-a-string', one)).toEqual([PERMS]);
    expect(lifted(two, one)).toEqual([]);
    expect(lifted(undefined, NO_PERMISSIONS)).toEqual([]);
    expect(lifted(ALL_PERMISSIONS, undefined)).toEqual([]);
    expect(lifted(one, 'not-a-string')).toEqual([]);
    expect(lifted(one, one)).toEqual([]);
  });
});

describe('keepAbsentFields', () => {
  it('the server: attributes and flags left out keep the stored value; sent ones replace', () => {
    const stored = { attributes: { [ADV]: true }, readonly: true, limitCommands: true, map: 'osm' };
    const input = { attributes: {}, readonly: false, limitCommands: false, map: 'google' };
    expect(keepAbsentFields('server', new Set(['map', 'limitCommands']), input, stored)).toEqual({
      attributes: { [ADV]: true },
      readonly: true,
      limitCommands: false,
      map: 'google',
    });
    expect(keepAbsentFields('server', new Set(['attributes', 'readonly']), input, stored)).toEqual({
      ...input,
      limitCommands: true,
    });
  });

  it('a user: also disabled and the expiration time', () => {
    const stored = { disabled: true, expirationTime: '2030-01-01T00:00:00.000Z', attributes: { a: 1 } };
    const input = { disabled: false, expirationTime: null, attributes: {}, name: 'x' };
    expect(keepAbsentFields('user', new Set(['name']), input, stored)).toEqual({ ...stored, name: 'x' });
    expect(keepAbsentFields('user', new Set(['expirationTime']), input, stored)).toEqual({
      ...input,
      disabled: true,
      attributes: { a: 1 },
    });
  });
});

describe('keptTotpKey', () => {
  it('an edit by someone else keeps the stored key unless an administrator clears it with ""', () => {
    for (const sent of [undefined, null]) {
      expect(keptTotpKey('administrator', sent, 'KEY')).toEqual({ totpKey: 'KEY', cleared: false });
      expect(keptTotpKey('other', sent, 'KEY')).toEqual({ totpKey: 'KEY', cleared: false });
    }
    expect(keptTotpKey('other', '', 'KEY')).toEqual({ totpKey: 'KEY', cleared: false });
    expect(keptTotpKey('administrator', '', 'KEY')).toEqual({ totpKey: null, cleared: true });
    expect(keptTotpKey('administrator', '', null)).toEqual({ totpKey: null, cleared: false });
  });

  it('the user themself sets and removes it (left out: kept); a sent key is stored', () => {
    expect(keptTotpKey('self', null, 'KEY')).toEqual({ totpKey: null, cleared: true });
    expect(keptTotpKey('self', '', 'KEY')).toEqual({ totpKey: null, cleared: true });
    expect(keptTotpKey('self', undefined, 'KEY')).toEqual({ totpKey: 'KEY', cleared: false });
    expect(keptTotpKey('self', 'NEW', 'KEY')).toEqual({ totpKey: 'NEW', cleared: false });
    expect(keptTotpKey('other', 'NEW', null)).toEqual({ totpKey: 'NEW', cleared: false });
  });
});
