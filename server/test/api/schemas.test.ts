// Unit tests of the shared zod schemas and validators (packages/domain/src/schemas), as the web forms use them.
import { describe, expect, it } from 'vitest';
import {
  deviceInput,
  describeZodError,
  formatTraccarDate,
  loginForm,
  parseZonedDate,
  permissionInput,
  userInput,
  validateArea,
  validateCalendarData,
} from '@rastro/domain';

describe('dates (CONTRACT §1)', () => {
  it('parses zoned ISO dates only', () => {
    expect(parseZonedDate('2024-05-01T00:00:00Z')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(parseZonedDate('2024-05-01T00:00:00.000+00:00')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(parseZonedDate('2024-05-01T02:00:00+02:00')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(parseZonedDate('2024-05-01T00:00:00')).toBeNull();
    expect(parseZonedDate('2024-05-01')).toBeNull();
    expect(parseZonedDate('2024-13-01T00:00:00Z')).toBeNull();
  });

  it('formats like Jackson: millis and +00:00', () => {
    expect(formatTraccarDate('2024-05-01T12:34:56Z')).toBe('2024-05-01T12:34:56.000+00:00');
    expect(formatTraccarDate(Date.UTC(2024, 4, 1, 12, 34, 56, 7))).toBe('2024-05-01T12:34:56.007+00:00');
    expect(formatTraccarDate(null)).toBeNull();
    expect(formatTraccarDate('garbage')).toBeNull();
  });
});

describe('entity schemas', () => {
  it('fill Traccar defaults for omitted fields (full replacement)', () => {
    expect(deviceInput.parse({ name: 'Van', uniqueId: ' 123 ' })).toEqual({
      id: 0,
      attributes: {},
      groupId: 0,
      calendarId: 0,
      name: 'Van',
      uniqueId: '123',
      phone: null,
      model: null,
      contact: null,
      category: null,
      disabled: false,
      expirationTime: null,
    });
    const u = userInput.parse({ name: 'A', email: 'a@x' });
    expect(u).toMatchObject({
      deviceLimit: 0,
      userLimit: 0,
      administrator: false,
      password: null,
      attributes: {},
    });
  });

  it('ignore unknown and read-only fields; null attributes become {}', () => {
    const d = deviceInput.parse({
      name: 'V',
      uniqueId: 'u',
      status: 'online',
      positionId: 5,
      foo: 1,
      attributes: null,
    });
    expect(d).not.toHaveProperty('status');
    expect(d).not.toHaveProperty('foo');
    expect(d.attributes).toEqual({});
  });

  it('describe errors with the field path', () => {
    const r = deviceInput.safeParse({ name: '', uniqueId: 'u' });
    expect(r.success).toBe(false);
    expect(describeZodError(r.error!)).toBe('name: name is required');
    const date = deviceInput.safeParse({ name: 'n', uniqueId: 'u', expirationTime: '2024-01-01' });
    expect(describeZodError(date.error!)).toMatch(/^expirationTime: invalid date/);
    const login = loginForm.safeParse({ email: 'a' });
    expect(describeZodError(login.error!)).toMatch(/^password: /);
  });

  it('permission objects: two keys, owner first, valid pair, positive ids', () => {
    expect(permissionInput.parse({ userId: 1, deviceId: 2 })).toEqual({
      ownerType: 'user',
      ownerId: 1,
      propertyType: 'device',
      propertyId: 2,
    });
    expect(permissionInput.parse({ deviceId: 4, linkedDeviceId: 9 }).propertyType).toBe('linkedDevice');
    expect(permissionInput.parse({ userId: 1, managedUserId: 7 }).propertyType).toBe('managedUser');
    for (const bad of [
      { deviceId: 2, userId: 1 },
      { userId: 1 },
      { userId: 0, deviceId: 1 },
      { groupId: 1, userId: 2 },
    ]) {
      expect(permissionInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('geofence areas (latitude first)', () => {
  it.each([
    ['CIRCLE (48.8566 2.3522, 500)', null],
    ['circle(-23.5 -46.6,50)', null],
    ['POLYGON ((48.85 2.35, 48.86 2.35, 48.86 2.36, 48.85 2.35))', null],
    ['LINESTRING (1 2, 3 4)', null],
    ['CIRCLE (91 0, 5)', 'latitude out of range: 91'],
    ['CIRCLE (0 181, 5)', 'longitude out of range: 181'],
    ['CIRCLE (0 0, 0)', 'invalid radius "0"'],
    ['POLYGON ((1 1, 2 2))', 'a polygon needs at least 3 points'],
    ['LINESTRING (1 1)', 'a line needs at least 2 points'],
    ['POINT (1 1)', expect.stringContaining('area must be')],
  ])('%s', (area, error) => {
    expect(validateArea(area)).toEqual(error);
  });
});

describe('calendar data', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  it('accepts a folded, multi-event iCalendar', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'DTSTART;TZID=America/Sao_Paulo:20240501T080000',
      'DTEND;TZID=America/Sao_Paulo:20240501T170000',
      'DESCRIPTION:long text that is',
      ' folded onto a second line',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'DTSTART;VALUE=DATE:20240601',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    expect(validateCalendarData(b64(ics))).toBeNull();
  });
  it.each([
    ['%%%', 'calendar data must be base64'],
    [b64(''), 'calendar data is empty'],
    [b64('BEGIN:VEVENT\r\nEND:VEVENT'), 'iCalendar must start with BEGIN:VCALENDAR'],
    [b64('BEGIN:VCALENDAR\r\nEND:VCALENDAR'), 'calendar has no VEVENT'],
    [
      b64('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:soon\r\nEND:VEVENT\r\nEND:VCALENDAR'),
      'invalid DTSTART "soon"',
    ],
    [b64('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240101\r\nEND:VCALENDAR'), 'unbalanced END:VCALENDAR'],
  ])('refuses %s', (data, error) => {
    expect(validateCalendarData(data)).toBe(error);
  });
});
