import { describe, expect, it } from 'vitest';
import {
  PERMISSION_CELLS,
  decodePermissionMatrix,
  emptyUserForm,
  encodePermissionMatrix,
  importRowToUser,
  mapImportHeaders,
  parseUserForm,
  permissionsBeyond,
  userImportRows,
  userToForm,
  type PermissionContext,
  type User,
  type UserFormValues,
} from '../src/index.ts';

const admin: PermissionContext = {
  user: { id: 1, administrator: true },
  server: { attributes: {} },
  isPlus: true,
};
const manager: PermissionContext = {
  user: {
    id: 5,
    administrator: false,
    userLimit: 10,
    attributes: { 'rastro.advancedPerms': '00ff0000' + '0'.repeat(24) },
  },
  server: { attributes: { 'rastro.enableAdvancedPerms': true } },
  isPlus: true,
};

const stored: User = {
  id: 7,
  attributes: { keep: 'me', 'rastro.lang': 'es', twelveHourFormat: true, 'rastro.city': 'Recife' },
  name: 'Ana Souza',
  login: null,
  email: 'ana@example.com',
  phone: '+55 81 99999-0000',
  readonly: false,
  administrator: false,
  map: 'osm',
  latitude: -8.05,
  longitude: -34.9,
  zoom: 12,
  coordinateFormat: 'dms',
  disabled: false,
  expirationTime: '2027-01-31T00:00:00.000Z',
  deviceLimit: 5,
  userLimit: 0,
  deviceReadonly: false,
  limitCommands: false,
  disableReports: false,
  fixedEmail: false,
  poiLayer: null,
  totpKey: null,
  temporary: false,
  password: null,
};

const valid = (over: Partial<UserFormValues> = {}): UserFormValues => ({
  ...emptyUserForm(true),
  name: 'João Silva',
  email: 'joao@example.com',
  password: 'abcd',
  confirmPassword: 'abcd',
  ...over,
});

const errorsOf = (v: UserFormValues, mode: 'create' | 'edit' = 'create', actor = admin) => {
  const r = parseUserForm(v, { mode, actor, permissions: true });
  return r.ok ? {} : r.errors;
};

describe('user form validation (SPEC §5)', () => {
  it('name: required, at least 3 characters', () => {
    expect(errorsOf(valid({ name: '  ' })).name).toBe('validation.nameRequired');
    expect(errorsOf(valid({ name: 'Jo' })).name).toBe('validation.nameMinLength');
    expect(errorsOf(valid({ name: 'Joe' })).name).toBeUndefined();
  });

  it('username or e-mail: required, at least 4 characters, a valid address when it has @', () => {
    expect(errorsOf(valid({ email: '' })).email).toBe('validation.emailRequired');
    expect(errorsOf(valid({ email: 'abc' })).email).toBe('validation.emailMinLength');
    expect(errorsOf(valid({ email: 'abcd' })).email).toBeUndefined();
    expect(errorsOf(valid({ email: 'joao@' })).email).toBe('validation.emailInvalid');
    expect(errorsOf(valid({ email: 'joao@@x.com' })).email).toBe('validation.emailInvalid');
  });

  it('password: required on create, at least 4 characters, equal to the confirmation', () => {
    expect(errorsOf(valid({ password: '', confirmPassword: '' })).password).toBe(
      'validation.passwordRequired',
    );
    expect(errorsOf(valid({ password: 'abc', confirmPassword: 'abc' })).password).toBe(
      'validation.passwordMinLength',
    );
    expect(errorsOf(valid({ password: 'abcd', confirmPassword: 'abce' })).confirmPassword).toBe(
      'validation.passwordMismatch',
    );
  });

  it('on edit an empty password keeps the stored one (password null in the body)', () => {
    const r = parseUserForm(
      { ...userToForm(stored), password: '', confirmPassword: '' },
      {
        mode: 'edit',
        base: stored,
        actor: admin,
        permissions: true,
      },
    );
    expect(r.ok && r.user.password).toBeNull();
    expect(errorsOf({ ...userToForm(stored), confirmPassword: 'x' }, 'edit').confirmPassword).toBe(
      'validation.passwordMismatch',
    );
  });

  it('map position ranges: latitude -90…90, longitude -180…180, zoom 0…22', () => {
    expect(errorsOf(valid({ latitude: '90', longitude: '-180', zoom: '22' }))).toEqual({});
    expect(errorsOf(valid({ latitude: '90.1' })).latitude).toBe('users:errors.latitude');
    expect(errorsOf(valid({ longitude: '180.5' })).longitude).toBe('users:errors.longitude');
    expect(errorsOf(valid({ zoom: '23' })).zoom).toBe('users:errors.zoom');
    expect(errorsOf(valid({ zoom: '1.5' })).zoom).toBe('users:errors.zoom');
    expect(errorsOf(valid({ latitude: 'abc' })).latitude).toBe('users:errors.latitude');
  });

  it('limits are integers of -1 (unlimited) or more', () => {
    expect(errorsOf(valid({ deviceLimit: '-1', userLimit: '10' }))).toEqual({});
    expect(errorsOf(valid({ deviceLimit: '-2' })).deviceLimit).toBe('users:errors.limit');
    expect(errorsOf(valid({ userLimit: '2.5' })).userLimit).toBe('users:errors.limit');
  });

  it('expiry is a real date; advancedPerms is 32 hex characters', () => {
    expect(errorsOf(valid({ expirationTime: '2027-02-30' })).expirationTime).toBe('validation.invalidDate');
    expect(errorsOf(valid({ advancedPerms: 'f'.repeat(31) })).advancedPerms).toBe(
      'validation.invalidPermissionString',
    );
    expect(errorsOf(valid({ advancedPerms: 'ffffffff-00000000-ffffffff-00000000' }))).toEqual({});
  });
});

describe('user form body', () => {
  it('maps a created user to a full Traccar body with namespaced attributes', () => {
    const r = parseUserForm(
      valid({
        phone: ' +55 11 5555-0000 ',
        language: 'en-US',
        twelveHourFormat: true,
        latitude: '-23,55',
        zoom: '14',
        deviceLimit: '3',
        expirationTime: '2027-03-01',
        advancedPerms: 'FFFFFFFF 00000000 FFFFFFFF 00000000',
        address: { ...emptyUserForm().address, city: 'São Paulo', zip: '01000-000' },
      }),
      { mode: 'create', actor: admin, permissions: true },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.user).toMatchObject({
      id: 0,
      name: 'João Silva',
      phone: '+55 11 5555-0000',
      password: 'abcd',
      latitude: -23.55,
      longitude: 0,
      zoom: 14,
      deviceLimit: 3,
      userLimit: 0,
      expirationTime: '2027-03-01T00:00:00.000Z',
    });
    expect(r.user.attributes).toEqual({
      'rastro.lang': 'en-US',
      twelveHourFormat: true,
      'rastro.city': 'São Paulo',
      'rastro.zip': '01000-000',
      'rastro.advancedPerms': 'ffffffff00000000ffffffff00000000',
    });
  });

  it('round-trips a stored user and keeps unknown attributes on edit', () => {
    const form = userToForm(stored);
    expect(form).toMatchObject({
      language: 'es',
      twelveHourFormat: true,
      latitude: '-8.05',
      zoom: '12',
      coordinateFormat: 'dms',
      deviceLimit: '5',
      expirationTime: '2027-01-31',
    });
    expect(form.address.city).toBe('Recife');
    const r = parseUserForm(
      { ...form, phone: '81 3333-4444', twelveHourFormat: false },
      {
        mode: 'edit',
        base: stored,
        actor: admin,
        permissions: true,
      },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.user.id).toBe(7);
    expect(r.user.phone).toBe('81 3333-4444');
    expect(r.user.expirationTime).toBe('2027-01-31T00:00:00.000Z');
    expect(r.user.attributes).toEqual({ keep: 'me', 'rastro.lang': 'es', 'rastro.city': 'Recife' });
  });

  it('without the permission tab (own account) the stored flags and limits are kept', () => {
    const own = { ...stored, readonly: true, deviceLimit: 2 };
    const r = parseUserForm(
      { ...userToForm(own), readonly: false, deviceLimit: '99' },
      {
        mode: 'edit',
        base: own,
        actor: { ...manager, user: { id: 7 } },
        permissions: false,
      },
    );
    expect(r.ok && [r.user.readonly, r.user.deviceLimit]).toEqual([true, 2]);
  });
});

describe('who may set what (SPEC §6)', () => {
  it('only an administrator grants administrator or changes limits', () => {
    const e = errorsOf(valid({ administrator: true, deviceLimit: '5', userLimit: '2' }), 'create', manager);
    expect(e).toMatchObject({
      administrator: 'users:errors.adminOnly',
      deviceLimit: 'users:errors.adminOnly',
      userLimit: 'users:errors.adminOnly',
    });
    expect(
      errorsOf(valid({ administrator: true, deviceLimit: '5', userLimit: '2' }), 'create', admin),
    ).toEqual({});
  });

  it('a manager may set the flags of a managed user', () => {
    expect(
      errorsOf(
        valid({ deviceLimit: '0', readonly: true, disabled: true, limitCommands: true }),
        'create',
        manager,
      ),
    ).toEqual({});
  });

  it('a manager cannot give an expiry later than his own, nor none', () => {
    const opts = {
      mode: 'create' as const,
      actor: manager,
      permissions: true,
      actorExpiration: '2027-06-30T00:00:00.000Z',
    };
    const later = parseUserForm(valid({ deviceLimit: '0', expirationTime: '2027-07-01' }), opts);
    expect(!later.ok && later.errors.expirationTime).toBe('users:errors.expirationBeyondOwn');
    const none = parseUserForm(valid({ deviceLimit: '0', expirationTime: '' }), opts);
    expect(!none.ok && none.errors.expirationTime).toBe('users:errors.expirationBeyondOwn');
    expect(parseUserForm(valid({ deviceLimit: '0', expirationTime: '2027-06-30' }), opts).ok).toBe(true);
  });

  it('a manager cannot give permission bits he does not hold', () => {
    // the manager holds bits 8–15 (devices): giving devices × view is fine, users × view (bit 16) is not
    const devicesView = '00800000' + '0'.repeat(24);
    const usersView = '00008000' + '0'.repeat(24);
    expect(permissionsBeyond(manager, devicesView)).toEqual([]);
    expect(permissionsBeyond(manager, usersView)).toEqual([16]);
    expect(permissionsBeyond(admin, 'f'.repeat(32))).toEqual([]);
    expect(
      errorsOf(valid({ deviceLimit: '0', advancedPerms: usersView }), 'create', manager).advancedPerms,
    ).toBe('users:errors.permsBeyondOwn');
  });
});

describe('permission matrix', () => {
  it('decodes the SPEC §6 menu bits to the view cells', () => {
    // bits 8 (devices), 16 (users), 32 (notifications), 40 (geofences) set
    const m = decodePermissionMatrix('00808000' + '80800000' + '0'.repeat(16));
    expect(m.devices.view).toBe(true);
    expect(m.users.view).toBe(true);
    expect(m.notifications.view).toBe(true);
    expect(m.geofences.view).toBe(true);
    expect(m.devices.lock).toBe(false);
    expect(m.reports.view).toBe(false);
  });

  it('encodes cells to 32 hex characters and back', () => {
    const m = decodePermissionMatrix('');
    m.devices.view = true;
    m.devices.lock = true;
    m.maintenance.view = true;
    const s = encodePermissionMatrix(m);
    expect(s).toHaveLength(32);
    expect(s).toBe('00c00000' + '00000000' + '00000000' + '80000000');
    expect(decodePermissionMatrix(s)).toEqual(m);
  });

  it('all cells on = every non-reserved bit; reserved bits of the base survive', () => {
    const all = decodePermissionMatrix('f'.repeat(32));
    expect(PERMISSION_CELLS.every((c) => all[c.area][c.action])).toBe(true);
    const none = decodePermissionMatrix('');
    expect(encodePermissionMatrix(none, 'f'.repeat(32))).toBe(
      'ff000000' + '03000000' + '00000000' + '00003fff',
    );
    expect(encodePermissionMatrix(all)).toBe('00ffffff' + 'fcffffff' + 'ffffffff' + 'ffffc000');
  });
});

describe('user Excel import', () => {
  it('maps headers in the three languages', () => {
    expect(mapImportHeaders(['Nome', 'E-mail', 'Senha', 'Telefone'])).toEqual({
      name: 0,
      email: 1,
      password: 2,
      phone: 3,
    });
    expect(mapImportHeaders(['correo', 'contraseña', 'nombre'])).toEqual({
      name: 2,
      email: 0,
      password: 1,
      phone: -1,
    });
  });

  it('validates each row with the form rules, duplicates included; blank rows are skipped', () => {
    const rows = userImportRows(
      [
        ['name', 'email', 'password', 'phone'],
        ['Maria Lima', 'maria@example.com', 'abcd', '11 5555-0000'],
        ['Jo', 'joao@', 'abc', 'x'],
        [null, null, null, null],
        ['Pedro Reis', 'MARIA@example.com', 'abcd', ''],
        ['Ana Costa', 'taken@example.com', 'abcd', ''],
      ],
      ['taken@example.com'],
    );
    expect(rows.map((r) => [r.index, r.errors])).toEqual([
      [2, []],
      [
        3,
        [
          'validation.nameMinLength',
          'validation.emailInvalid',
          'validation.passwordMinLength',
          'users:errors.phoneInvalid',
        ],
      ],
      [5, ['users:errors.duplicateEmail']],
      [6, ['users:errors.duplicateEmail']],
    ]);
    expect(importRowToUser(rows[0].data)).toEqual({
      id: 0,
      name: 'Maria Lima',
      email: 'maria@example.com',
      phone: '11 5555-0000',
      password: 'abcd',
      attributes: {},
    });
  });

  it('a missing required column fails every row', () => {
    const rows = userImportRows([
      ['name', 'email'],
      ['Maria Lima', 'maria@example.com'],
    ]);
    expect(rows[0].errors).toEqual(['users:errors.missingColumn']);
  });
});
