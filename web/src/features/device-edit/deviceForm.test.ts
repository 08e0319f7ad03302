// The device form (SPEC §3, §5): messages of the domain schema, device ⇄ form, accumulators, device-limit check.
import { describe, expect, it } from 'vitest';
import type { Device, Position } from '@rastro/domain';
import {
  addDeviceDenial,
  deviceToForm,
  emptyDeviceForm,
  formToRequests,
  parseDeviceForm,
} from './deviceForm.ts';

const base: Device = {
  id: 5,
  attributes: {
    placa: 'ABC1D23',
    'rastro.color': '#ff0000',
    installation: JSON.stringify({ company: 'Sul', date: '2025-01-02' }),
    custom: 'kept',
  },
  groupId: 2,
  calendarId: 0,
  name: 'Van',
  uniqueId: '123',
  status: 'online',
  lastUpdate: null,
  positionId: 1,
  phone: '+55',
  model: 'X',
  contact: null,
  category: 'van',
  disabled: false,
  expirationTime: null,
};

describe('parseDeviceForm', () => {
  it('gives the SPEC §5 message keys for name and unique id', () => {
    expect(parseDeviceForm(emptyDeviceForm())).toEqual({
      ok: false,
      errors: { name: 'validation.deviceNameRequired', uniqueId: 'validation.deviceUniqueIdRequired' },
    });
  });

  it('checks numbers, dates order, e-mail and lengths', () => {
    const f = {
      ...emptyDeviceForm(),
      name: 'a',
      uniqueId: 'b',
      monthlyValue: 'x',
      fuelTank: '-1',
      plate: 'X'.repeat(17),
    };
    f.simActivationDate = '2025-05-10';
    f.simExpirationDate = '2025-05-01';
    f.installation = { ...f.installation, email: 'nope' };
    const r = parseDeviceForm(f);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors).toMatchObject({
        monthlyValue: 'validation.invalidNumber',
        fuelTank: 'validation.notNegative',
        plate: 'validation.tooLong',
        'installation.email': 'validation.emailInvalid',
      });
  });
});

describe('SIM dates', () => {
  it('the expiry must not be before the activation (checked once the fields are valid)', () => {
    const f = {
      ...emptyDeviceForm(),
      name: 'a',
      uniqueId: 'b',
      simActivationDate: '2025-05-10',
      simExpirationDate: '2025-05-01',
    };
    expect(parseDeviceForm(f)).toEqual({
      ok: false,
      errors: { simExpirationDate: 'validation.simDatesOrder' },
    });
    expect(parseDeviceForm({ ...f, simExpirationDate: '2025-05-10' }).ok).toBe(true);
  });
});

describe('device ⇄ form', () => {
  const position = { attributes: { totalDistance: 1_234_500, hours: 36_000_000 } } as unknown as Position;

  it('reads attributes, installation and accumulators (km, h)', () => {
    const f = deviceToForm(base, position, 'rastro');
    expect(f).toMatchObject({
      id: 5,
      name: 'Van',
      plate: 'ABC1D23',
      color: '#ff0000',
      groupId: '2',
      category: 'van',
      odometer: '1234.5',
      engineHours: '10',
    });
    expect(f.installation).toMatchObject({ company: 'Sul', date: '2025-01-02' });
  });

  it('reads every text field kept in an attribute; the device columns win over attributes', () => {
    const attributes = {
      'device.gpsBrand': 'Suntech',
      'device.model': 'ST-attr',
      fuelCapacity: 60,
      simActivationDate: '2025-03-04T10:00:00Z',
      'rastro.color_extra': '#00ff00',
      'rastro.qrDriver': 'true',
      'device.state': 'maintenance',
    };
    const f = deviceToForm({ ...base, model: null, attributes }, undefined, 'rastro');
    expect(f).toMatchObject({
      brand: 'Suntech',
      model: 'ST-attr',
      fuelTank: '60',
      simActivationDate: '2025-03-04',
      colorExtra: '#00ff00',
      qrDriver: true,
      state: 'maintenance',
      iccid: '',
    });
    expect(deviceToForm({ ...base, model: 'ST-col', attributes }, undefined, 'rastro').model).toBe('ST-col');
  });

  it('keeps unknown attributes and only sends accumulators that changed', () => {
    const initial = deviceToForm(base, position, 'rastro');
    const same = parseDeviceForm(initial);
    if (!same.ok) throw new Error('valid');
    const r1 = formToRequests(same.form, initial, initial, base, 'rastro');
    expect(r1.accumulators).toBeUndefined();
    expect(r1.device.attributes).toMatchObject({
      custom: 'kept',
      placa: 'ABC1D23',
      'rastro.color': '#ff0000',
    });
    const changed = { ...initial, odometer: '2000' };
    const p2 = parseDeviceForm(changed);
    if (!p2.ok) throw new Error('valid');
    expect(formToRequests(p2.form, initial, changed, base, 'rastro').accumulators).toEqual({
      totalDistance: 2_000_000,
    });
  });
});

describe('addDeviceDenial (SPEC §5)', () => {
  const input = {
    headerLimit: 0,
    server: { attributes: {} },
    user: { deviceLimit: -1, administrator: false },
    ns: 'rastro',
    serverDeviceCount: 10,
    userDeviceCount: 3,
  };
  it('allows when nothing is limited (header 0 = no licence cap, user -1 = unlimited)', () => {
    expect(addDeviceDenial(input)).toBeNull();
  });
  it('blocks when the licence cap leaves 0 or fewer devices', () => {
    expect(addDeviceDenial({ ...input, headerLimit: 10 })).toBe('validation.deviceLimitReached');
    expect(addDeviceDenial({ ...input, headerLimit: 11 })).toBeNull();
  });
  it('blocks when the server attribute limit is reached', () => {
    expect(addDeviceDenial({ ...input, server: { attributes: { 'rastro.deviceLimit': 10 } } })).toBe(
      'validation.deviceLimitReached',
    );
    expect(addDeviceDenial({ ...input, server: { attributes: { 'rastro.deviceLimit': 11 } } })).toBeNull();
  });
  it("blocks when the user's limit (0 or more) is reached; admins skip it", () => {
    expect(addDeviceDenial({ ...input, user: { deviceLimit: 3, administrator: false } })).toBe(
      'validation.deviceLimitReached',
    );
    expect(
      addDeviceDenial({ ...input, user: { deviceLimit: 0, administrator: false }, userDeviceCount: 0 }),
    ).toBe('validation.deviceLimitReached');
    expect(addDeviceDenial({ ...input, user: { deviceLimit: 3, administrator: true } })).toBeNull();
  });
});
