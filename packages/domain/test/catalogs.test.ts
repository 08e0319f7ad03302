import { describe, expect, it } from 'vitest';
import {
  attributeValue,
  canDeleteById,
  driverSaveError,
  driverToForm,
  emptyDriverForm,
  emptyGroupForm,
  emptyMaintenanceForm,
  filterGroupTree,
  groupDescendants,
  groupParentOptions,
  groupToForm,
  groupTree,
  isValidCpf,
  maintenanceFromDisplay,
  maintenanceNextDue,
  maintenanceToDisplay,
  maintenanceToForm,
  parseDriverForm,
  parseGroupForm,
  parseMaintenanceForm,
  readDecimal,
  rowsToAttributes,
  type Group,
} from '../src/index.ts';

const g = (id: number, name: string, groupId = 0): Group => ({ id, name, groupId, attributes: {} });
// Frota (1) > Norte (2) > Caminhões (4) ; Frota > Sul (3) ; Avulsos (5)
const groups = [g(4, 'Caminhões', 2), g(1, 'Frota'), g(3, 'Sul', 1), g(2, 'Norte', 1), g(5, 'Avulsos')];

describe('group tree', () => {
  it('orders parents before children, siblings by name, with depth', () => {
    expect(groupTree(groups).map((r) => [r.group.name, r.depth, r.hasChildren])).toEqual([
      ['Avulsos', 0, false],
      ['Frota', 0, true],
      ['Norte', 1, true],
      ['Caminhões', 2, false],
      ['Sul', 1, false],
    ]);
  });

  it('shows a group whose parent is not visible as a root, and a cycle once', () => {
    expect(groupTree([g(7, 'Filho', 99)]).map((r) => r.depth)).toEqual([0]);
    const cyc = groupTree([g(1, 'A', 2), g(2, 'B', 1)]);
    expect(cyc.map((r) => r.group.id).sort()).toEqual([1, 2]);
  });

  it('descendants and parent options exclude the group itself and its subtree', () => {
    expect([...groupDescendants(groups, 1)].sort()).toEqual([2, 3, 4]);
    expect(groupParentOptions(groups, 1).map((r) => r.group.name)).toEqual(['Avulsos']);
    expect(groupParentOptions(groups, 2).map((r) => r.group.name)).toEqual(['Avulsos', 'Frota', 'Sul']);
    expect(groupParentOptions(groups, 0)).toHaveLength(5);
  });

  it('search keeps matches with their ancestors, ignoring case and accents', () => {
    expect(filterGroupTree(groupTree(groups), 'caminhoes').map((r) => r.group.name)).toEqual([
      'Frota',
      'Norte',
      'Caminhões',
    ]);
    expect(filterGroupTree(groupTree(groups), '')).toHaveLength(5);
  });

  it('the form refuses an empty name and a parent inside its own subtree', () => {
    const f = { ...groupToForm(groups[1]), groupId: 4 };
    expect(parseGroupForm(f, groups)).toEqual({ ok: false, errors: { groupId: 'errors.parentCycle' } });
    expect(parseGroupForm({ ...emptyGroupForm(), name: '  ' }, groups)).toEqual({
      ok: false,
      errors: { name: 'errors.nameRequired' },
    });
    expect(
      parseGroupForm(
        { id: 0, name: ' Oeste ', groupId: 1, attributes: [{ key: 'speedLimit', value: '80' }] },
        groups,
      ),
    ).toEqual({ ok: true, value: { id: 0, name: 'Oeste', groupId: 1, attributes: { speedLimit: 80 } } });
  });
});

describe('attribute editor', () => {
  it('types values: booleans, plain numbers, texts (leading zeros stay text)', () => {
    expect(attributeValue('true')).toBe(true);
    expect(attributeValue('12.5')).toBe(12.5);
    expect(attributeValue('0123')).toBe('0123');
    expect(attributeValue('abc')).toBe('abc');
  });

  it('flags a missing or repeated key; empty rows are ignored', () => {
    expect(
      rowsToAttributes([
        { key: 'a', value: '1' },
        { key: '', value: 'x' },
        { key: 'a', value: '2' },
        { key: '', value: '' },
      ]),
    ).toEqual({ ok: false, errors: { 1: 'errors.keyRequired', 2: 'errors.keyDuplicate' } });
  });
});

describe('driver form', () => {
  it('requires name and uniqueId', () => {
    expect(parseDriverForm(emptyDriverForm())).toEqual({
      ok: false,
      errors: { name: 'errors.nameRequired', uniqueId: 'errors.uniqueIdRequired' },
    });
  });

  it('keeps SPEC §3 fields and QR access in attributes, and reads them back', () => {
    const f = emptyDriverForm();
    f.name = 'Ana Souza';
    f.uniqueId = ' RFID-77 ';
    f.fields.licenseNumber = '01234567890';
    f.fields.licenseCategory = 'AE';
    f.fields.cpf = '529.982.247-25';
    f.fields.birthDate = '1990-05-01';
    f.qr.qrUsername = 'ana';
    f.qr.qrUnlockDevice = true;
    f.qr.qrLockTimeout = '15';
    f.attributes = [{ key: 'turno', value: 'noite' }];
    const r = parseDriverForm(f, { id: 3, name: 'x', uniqueId: 'y', attributes: { imageUpdated: 5 } });
    expect(r).toEqual({
      ok: true,
      value: {
        id: 0,
        name: 'Ana Souza',
        uniqueId: 'RFID-77',
        attributes: {
          turno: 'noite',
          imageUpdated: 5,
          licenseNumber: '01234567890',
          licenseCategory: 'AE',
          cpf: '52998224725',
          birthDate: '1990-05-01',
          qrUsername: 'ana',
          qrUnlockDevice: true,
          qrLockTimeout: 15,
        },
      },
    });
    if (!r.ok) return;
    const back = driverToForm(r.value);
    expect(back.fields.cpf).toBe('52998224725');
    expect(back.qr).toMatchObject({ qrUsername: 'ana', qrUnlockDevice: true, qrLockTimeout: '15' });
    expect(back.attributes).toEqual([{ key: 'turno', value: 'noite' }]);
  });

  it('checks CPF digits, e-mail and dates', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('529.982.247-24')).toBe(false);
    const f = { ...emptyDriverForm(), name: 'A', uniqueId: 'B' };
    f.fields = { ...f.fields, cpf: '123', email: 'x@', licenseValidity: '31/12/2030' };
    expect(parseDriverForm(f)).toEqual({
      ok: false,
      errors: {
        cpf: 'errors.cpfInvalid',
        email: 'errors.emailInvalid',
        licenseValidity: 'errors.dateInvalid',
      },
    });
  });

  it('maps the duplicate uniqueId answer', () => {
    expect(driverSaveError(400, 'Duplicate uniqueId')).toBe('errors.uniqueIdTaken');
    expect(driverSaveError(500, 'boom')).toBe('saveError');
  });
});

describe('maintenance units', () => {
  it('10,000 km ⇄ 10,000,000 m and 500 h ⇄ 1,800,000,000 ms', () => {
    expect(maintenanceFromDisplay('totalDistance', 10_000, 'km')).toBe(10_000_000);
    expect(maintenanceToDisplay('totalDistance', 10_000_000, 'km')).toBe(10_000);
    expect(maintenanceFromDisplay('hours', 500, 'km')).toBe(1_800_000_000);
    expect(maintenanceToDisplay('hours', 1_800_000_000, 'km')).toBe(500);
  });

  it('uses the user distance unit (miles) and leaves other types raw', () => {
    expect(maintenanceFromDisplay('totalDistance', 1, 'mi')).toBeCloseTo(1609.344, 1);
    expect(maintenanceToDisplay('totalDistance', 1609.344, 'mi')).toBeCloseTo(1, 4);
    expect(maintenanceFromDisplay('serverTime', 42, 'km')).toBe(42);
  });

  it('form ⇄ Maintenance body', () => {
    const r = parseMaintenanceForm(
      { ...emptyMaintenanceForm(), name: 'Troca de óleo', start: '0', period: '10000' },
      'km',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        id: 0,
        name: 'Troca de óleo',
        type: 'totalDistance',
        start: 0,
        period: 10_000_000,
        attributes: {},
      },
    });
    const f = maintenanceToForm(
      { id: 4, name: 'Revisão', type: 'hours', start: 360_000_000, period: 1_800_000_000, attributes: {} },
      'km',
    );
    expect(f).toMatchObject({ start: '100', period: '500' });
    expect(parseMaintenanceForm({ ...f, period: '0' }, 'km')).toEqual({
      ok: false,
      errors: { period: 'errors.periodInvalid' },
    });
    expect(parseMaintenanceForm({ ...f, name: '' }, 'km')).toMatchObject({
      ok: false,
      errors: { name: 'errors.nameRequired' },
    });
  });

  it('reads decimals with comma or point', () => {
    expect(readDecimal('10.000')).toBe(10);
    expect(readDecimal('10000')).toBe(10000);
    expect(readDecimal('1.234,5')).toBe(1234.5);
    expect(readDecimal('12,5')).toBe(12.5);
    expect(readDecimal('abc')).toBeNull();
  });

  it('next due value: start + k·period above the current value', () => {
    expect(maintenanceNextDue(0, 10_000_000)).toBe(10_000_000);
    expect(maintenanceNextDue(0, 10_000_000, 23_500_000)).toBe(30_000_000);
    expect(maintenanceNextDue(5_000_000, 10_000_000, 1_000)).toBe(5_000_000);
    expect(maintenanceNextDue(0, 10_000_000, 10_000_000)).toBe(20_000_000);
  });

  it('deletes need an id above 0 (SPEC §5)', () => {
    expect(canDeleteById(3)).toBe(true);
    expect(canDeleteById(0)).toBe(false);
  });
});
