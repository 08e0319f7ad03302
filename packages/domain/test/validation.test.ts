import { describe, expect, it } from 'vitest';
import {
  deleteDenial,
  deviceLimitCheck,
  directMessageSchema,
  fieldErrors,
  firstErrorKey,
  geofenceFormSchema,
  loginSchema,
  newPasswordSchema,
  notificationEventFormSchema,
  notificationFormSchema,
  recoverSchema,
  routeLoadErrorKey,
  routeResponseProblem,
  serverDeviceLimitAttribute,
  tokenLoginSchema,
  userFormSchema,
  userLimitReached,
  advancedPermsSchema,
  driverSelectionSchema,
} from '../src/validation.ts';
import { isUpdate, saveRequest } from '../src/saveRequest.ts';
import { deviceFormSchema, deviceFormToDevice } from '../src/deviceFormSchema.ts';
import { devicePlate } from '../src/attributes.ts';
import { isMessageKey } from '../src/messages.ts';

const errs = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? {} : fieldErrors(r.error!);

describe('login family', () => {
  it('login needs email and password, else FILL_ALL_FIELDS', () => {
    expect(loginSchema.safeParse({ email: 'a@b.c', password: 'x' }).success).toBe(true);
    expect(firstErrorKey(loginSchema.safeParse({ email: '  ', password: 'x' }))).toBe(
      'loginErrors.FILL_ALL_FIELDS',
    );
    expect(firstErrorKey(loginSchema.safeParse({ email: 'a', password: '' }))).toBe(
      'loginErrors.FILL_ALL_FIELDS',
    );
    expect(firstErrorKey(loginSchema.safeParse({}))).toBe('loginErrors.FILL_ALL_FIELDS');
  });
  it('recover, new password, token login', () => {
    expect(firstErrorKey(recoverSchema.safeParse({ email: '' }))).toBe('loginErrors.FILL_EMAIL_FIELD');
    expect(recoverSchema.safeParse({ email: 'x' }).success).toBe(true);
    expect(firstErrorKey(newPasswordSchema.safeParse({ token: '', password: 'abcd' }))).toBe(
      'loginErrors.FILL_TOKEN_FIELD',
    );
    expect(newPasswordSchema.safeParse({ token: 't', password: 'abcd' }).success).toBe(true);
    expect(firstErrorKey(tokenLoginSchema.safeParse({ token: '' }))).toBe('loginErrors.FILL_ALL_FIELDS');
    expect(firstErrorKey(tokenLoginSchema.safeParse({}))).toBe('loginErrors.FILL_ALL_FIELDS');
  });
});

describe('user form', () => {
  const ok = { name: 'Ana', email: 'anab', password: 'abcd', confirmPassword: 'abcd' };
  it('accepts the minimums: name 3, login 4, password 4', () => {
    expect(userFormSchema().safeParse(ok).success).toBe(true);
  });
  it('rejects one below each minimum and empties', () => {
    expect(errs(userFormSchema().safeParse({ ...ok, name: 'An' }))).toEqual({
      name: 'validation.nameMinLength',
    });
    expect(errs(userFormSchema().safeParse({ ...ok, name: ' ' }))).toEqual({
      name: 'validation.nameRequired',
    });
    expect(errs(userFormSchema().safeParse({ ...ok, email: 'abc' }))).toEqual({
      email: 'validation.emailMinLength',
    });
    expect(errs(userFormSchema().safeParse({ ...ok, email: '' }))).toEqual({
      email: 'validation.emailRequired',
    });
    expect(errs(userFormSchema().safeParse({ ...ok, password: 'abc', confirmPassword: 'abc' }))).toEqual({
      password: 'validation.passwordMinLength',
    });
    expect(errs(userFormSchema().safeParse({ ...ok, password: '', confirmPassword: '' }))).toEqual({
      password: 'validation.passwordRequired',
    });
    expect(errs(userFormSchema().safeParse({ ...ok, confirmPassword: 'abce' }))).toEqual({
      confirmPassword: 'validation.passwordMismatch',
    });
  });
  it('edit mode keeps the old password when empty and keeps other fields', () => {
    const r = userFormSchema('edit').safeParse({ name: 'Ana', email: 'anab', administrator: true });
    expect(r.success).toBe(true);
    expect((r.data as Record<string, unknown>).administrator).toBe(true);
  });
  it('advanced permission string', () => {
    expect(advancedPermsSchema.safeParse('f'.repeat(32)).success).toBe(true);
    expect(firstErrorKey(advancedPermsSchema.safeParse('f'.repeat(31)))).toBe(
      'validation.invalidPermissionString',
    );
  });
});

describe('device form', () => {
  it('requires name and unique id with the spec wording keys', () => {
    expect(errs(deviceFormSchema.safeParse({ name: '', uniqueId: '' }))).toEqual({
      name: 'validation.deviceNameRequired',
      uniqueId: 'validation.deviceUniqueIdRequired',
    });
  });
  it('parses every SPEC §3 field', () => {
    const r = deviceFormSchema.safeParse({
      name: ' Truck ',
      uniqueId: '123456789012345',
      iccid: '8955',
      phone: '+55 11 9999',
      operator: 'Vivo',
      broker: 'Broker',
      model: 'GT06',
      plate: 'ABC1D23',
      renavam: '123',
      brand: 'Concox',
      technology: '4G',
      protocol: 'gt06',
      apn: 'zap.vivo.com.br',
      monthlyValue: '39,90',
      simActivationDate: '2026-01-01',
      simExpirationDate: '2027-01-01',
      color: '#ff0000',
      colorExtra: '#00ff00',
      icon: 'truck1',
      category: 'truck',
      groupId: '3',
      driverUniqueId: 'D1',
      odometer: '1500.5',
      fuelTank: 60,
      engineHours: 10,
      qrDriver: true,
      state: 'in_service',
      installation: { company: 'ACME', installer: 'Zé', email: 'ze@acme.com', date: '2026-01-02' },
    });
    expect(r.success).toBe(true);
    expect(r.data!.name).toBe('Truck');
    expect(r.data!.monthlyValue).toBe(39.9);
    expect(r.data!.groupId).toBe(3);
    const { device, accumulators } = deviceFormToDevice(r.data!, { attributes: { plate: 'OLD', keep: 1 } });
    expect(device.attributes).toMatchObject({
      placa: 'ABC1D23',
      keep: 1,
      'rastro.color': '#ff0000',
      'rastro.color_extra': '#00ff00',
      'device.state': 'in_service',
      'device.gpsBrand': 'Concox',
      'device.technology': '4G',
      icon: 'truck1',
      fuelCapacity: 60,
    });
    expect(device.attributes.plate).toBeUndefined();
    expect(JSON.parse(String(device.attributes.installation)).company).toBe('ACME');
    expect(accumulators).toEqual({ totalDistance: 1500500, hours: 36_000_000 });
    expect(device.groupId).toBe(3);
    expect(devicePlate(device)).toBe('ABC1D23');
  });
  it('rejects bad icon, colour, state, date, number and SIM date order', () => {
    const base = { name: 'a', uniqueId: 'b' };
    expect(errs(deviceFormSchema.safeParse({ ...base, icon: 'rocket' }))).toEqual({
      icon: 'validation.invalidIcon',
    });
    expect(errs(deviceFormSchema.safeParse({ ...base, color: 'red' }))).toEqual({
      color: 'validation.invalidColor',
    });
    expect(errs(deviceFormSchema.safeParse({ ...base, state: 'lost' }))).toEqual({
      state: 'validation.invalidState',
    });
    expect(errs(deviceFormSchema.safeParse({ ...base, simActivationDate: '01/02/2026' }))).toEqual({
      simActivationDate: 'validation.invalidDate',
    });
    expect(errs(deviceFormSchema.safeParse({ ...base, fuelTank: 'abc' }))).toEqual({
      fuelTank: 'validation.invalidNumber',
    });
    expect(errs(deviceFormSchema.safeParse({ ...base, odometer: -1 }))).toEqual({
      odometer: 'validation.notNegative',
    });
    expect(
      errs(
        deviceFormSchema.safeParse({
          ...base,
          simActivationDate: '2026-02-01',
          simExpirationDate: '2026-01-31',
        }),
      ),
    ).toEqual({ simExpirationDate: 'validation.simDatesOrder' });
    expect(deviceFormSchema.safeParse({ ...base, icon: '', color: '', groupId: '' }).success).toBe(true);
  });
});

describe('geofence and notification', () => {
  it('geofence name required', () => {
    expect(firstErrorKey(geofenceFormSchema.safeParse({ name: '' }))).toBe('validation.geofenceNameRequired');
    expect(geofenceFormSchema.safeParse({ name: 'Base', area: 'CIRCLE (1 2, 3)' }).success).toBe(true);
  });
  it('notification needs type, channels and alarms for alarm rules', () => {
    expect(errs(notificationFormSchema.safeParse({ type: '', notificators: [] }))).toEqual({
      type: 'validation.typeRequired',
      notificators: 'validation.channelsRequired',
    });
    expect(errs(notificationFormSchema.safeParse({ type: 'alarm', notificators: ['web'] }))).toEqual({
      alarms: 'validation.alarmsRequired',
    });
    expect(
      notificationFormSchema.safeParse({ type: 'alarm', notificators: ['web'], alarms: ['sos'] }).success,
    ).toBe(true);
    expect(
      notificationFormSchema.safeParse({ type: 'ignitionOn', notificators: ['web'], color: 'red' }).success,
    ).toBe(true);
  });
  it('event variant also needs devices and calendar; driverChanged needs a driver', () => {
    expect(
      errs(
        notificationEventFormSchema.safeParse({ type: 'ignitionOn', notificators: ['web'], deviceIds: [] }),
      ),
    ).toEqual({
      deviceIds: 'validation.devicesRequired',
      calendarId: 'validation.calendarRequired',
    });
    const ok = { type: 'ignitionOn', notificators: ['web'], deviceIds: [1], calendarId: 2 };
    expect(notificationEventFormSchema.safeParse(ok).success).toBe(true);
    expect(errs(notificationEventFormSchema.safeParse({ ...ok, type: 'driverChanged' }))).toEqual({
      driverId: 'validation.driverRequired',
    });
    expect(firstErrorKey(driverSelectionSchema.safeParse({ driverId: 0 }))).toBe('validation.driverRequired');
  });
});

describe('direct message', () => {
  const all = directMessageSchema();
  it('at least one channel: Selecione pelo menos um canal', () => {
    expect(errs(all.safeParse({ channels: [], subject: 's', body: 'b' }))).toEqual({
      channels: 'validation.channelRequired',
    });
  });
  it('body required, subject required for push/web/mail only', () => {
    expect(errs(all.safeParse({ channels: ['sms'], subject: '', body: '' }))).toEqual({
      body: 'validation.bodyRequired',
    });
    expect(all.safeParse({ channels: ['sms', 'telegram'], subject: '', body: 'hi' }).success).toBe(true);
    for (const c of ['firebase', 'web', 'mail']) {
      expect(errs(all.safeParse({ channels: [c], subject: ' ', body: 'hi' }))).toEqual({
        subject: 'validation.subjectRequired',
      });
    }
  });
  it('subject at most 100', () => {
    expect(all.safeParse({ channels: ['web'], subject: 's'.repeat(100), body: 'b' }).success).toBe(true);
    expect(errs(all.safeParse({ channels: ['web'], subject: 's'.repeat(101), body: 'b' }))).toEqual({
      subject: 'validation.subjectTooLong',
    });
  });
  it.each([
    ['sms', 160],
    ['telegram', 1000],
    ['firebase', 500],
    ['web', 500],
    ['mail', 5000],
  ])('body limit %s = %i', (channel, max) => {
    expect(all.safeParse({ channels: [channel], subject: 's', body: 'x'.repeat(max) }).success).toBe(true);
    const r = all.safeParse({ channels: [channel], subject: 's', body: 'x'.repeat(max + 1) });
    expect(r.success).toBe(false);
    const issue = r.error!.issues[0] as unknown as {
      message: string;
      params: { channel: string; max: number };
    };
    expect(issue.message).toBe('validation.bodyTooLong');
    expect(issue.params).toEqual({ channel, max });
  });
  it('rejects channels not offered to the recipient', () => {
    expect(
      errs(directMessageSchema(['web']).safeParse({ channels: ['sms'], subject: '', body: 'b' })),
    ).toEqual({
      channels: 'validation.channelNotAvailable',
    });
  });
});

describe('saves and deletes', () => {
  it('update when the id is present and above 0', () => {
    expect(isUpdate(5)).toBe(true);
    expect(isUpdate('5')).toBe(true);
    expect(isUpdate(0)).toBe(false);
    expect(isUpdate(-1)).toBe(false);
    expect(isUpdate(undefined)).toBe(false);
    expect(isUpdate(null)).toBe(false);
    expect(saveRequest('/api/devices', 7)).toEqual({ method: 'PUT', path: '/api/devices/7' });
    expect(saveRequest('/api/devices', 0)).toEqual({ method: 'POST', path: '/api/devices' });
  });
  it('group, computed and maintenance deletes need id > 0', () => {
    for (const k of ['group', 'computed', 'maintenance']) {
      expect(deleteDenial(k, 1)).toBeNull();
      expect(deleteDenial(k, 0)).toBe('validation.idRequired');
      expect(deleteDenial(k, -1)).toBe('validation.idRequired');
    }
    expect(deleteDenial('device', 3)).toBeNull();
    expect(deleteDenial('device', undefined)).toBe('validation.idRequired');
  });
});

describe('device limit (SPEC §5)', () => {
  const base = { serverDeviceCount: 10, userDeviceCount: 3 };
  it('server-reported allowed limit 0 or below blocks', () => {
    expect(deviceLimitCheck({ ...base, serverAllowed: 0 })).toMatchObject({
      allowed: false,
      reason: 'serverAllowed',
    });
    expect(deviceLimitCheck({ ...base, serverAllowed: -1 })).toMatchObject({ allowed: false });
    expect(deviceLimitCheck({ ...base, serverAllowed: 1 })).toEqual({ allowed: true });
    expect(deviceLimitCheck({ ...base, serverAllowed: null })).toEqual({ allowed: true });
  });
  it('server attribute limit above 0 and reached blocks', () => {
    expect(deviceLimitCheck({ ...base, serverAttributeLimit: 10 })).toMatchObject({
      reason: 'serverAttribute',
    });
    expect(deviceLimitCheck({ ...base, serverAttributeLimit: 11 })).toEqual({ allowed: true });
    expect(deviceLimitCheck({ ...base, serverAttributeLimit: 0 })).toEqual({ allowed: true });
  });
  it('user limit 0 or more and reached blocks; -1 never; admins skip', () => {
    expect(deviceLimitCheck({ ...base, userLimit: 3 })).toMatchObject({
      reason: 'user',
      key: 'validation.deviceLimitReached',
    });
    expect(deviceLimitCheck({ ...base, userLimit: 4 })).toEqual({ allowed: true });
    expect(deviceLimitCheck({ ...base, userLimit: 0, userDeviceCount: 0 })).toMatchObject({ allowed: false });
    expect(deviceLimitCheck({ ...base, userLimit: -1 })).toEqual({ allowed: true });
    expect(deviceLimitCheck({ ...base, userLimit: 3, isAdmin: true })).toEqual({ allowed: true });
  });
  it('reads the attribute and the user limit', () => {
    expect(serverDeviceLimitAttribute({ 'rastro.deviceLimit': '50' })).toBe(50);
    expect(serverDeviceLimitAttribute({})).toBeNull();
    expect(userLimitReached(-1, 100)).toBe(false);
    expect(userLimitReached(2, 2)).toBe(true);
    expect(userLimitReached(2, 1)).toBe(false);
    expect(userLimitReached(0, 0)).toBe(true);
  });
});

describe('route load', () => {
  it('must exist and be an array except for export', () => {
    expect(routeResponseProblem(undefined)).toBe('route.invalidResponse');
    expect(routeResponseProblem(null, true)).toBe('route.invalidResponse');
    expect(routeResponseProblem({})).toBe('route.invalidData');
    expect(routeResponseProblem({}, true)).toBeNull();
    expect(routeResponseProblem([])).toBeNull();
    expect(routeLoadErrorKey({ status: 404 })).toBe('route.noData');
    expect(routeLoadErrorKey(new SyntaxError('x'))).toBe('route.badFormat');
    expect(routeLoadErrorKey({ status: 500 })).toBe('route.invalidResponse');
  });
});

describe('every emitted key is catalogued', () => {
  it('schemas only produce known message keys', () => {
    const results = [
      loginSchema.safeParse({}),
      userFormSchema().safeParse({}),
      deviceFormSchema.safeParse({ icon: 'x', color: 'x', state: 'x', fuelTank: 'x' }),
      notificationEventFormSchema.safeParse({ type: 'x' }),
      directMessageSchema().safeParse({ channels: [], body: 'x' }),
    ];
    for (const r of results)
      for (const i of r.error!.issues) expect(isMessageKey(i.message), i.message).toBe(true);
  });
});
