// Valid request bodies for every object resource, shared by the API, matrix and other tests.

/** A small valid iCalendar (base64), one daily VEVENT. */
export const ICS = Buffer.from(
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Rastro//test//EN',
    'BEGIN:VEVENT',
    'UID:1@rastro',
    'DTSTART:20240501T080000Z',
    'DTEND:20240501T170000Z',
    'RRULE:FREQ=DAILY',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n'),
).toString('base64');

/** A valid body for each resource path. */
export const SAMPLES: Record<string, () => Record<string, unknown>> = {
  devices: () => ({ name: 'Truck', uniqueId: `u-${Math.random().toString(36).slice(2)}` }),
  groups: () => ({ name: 'Fleet' }),
  geofences: () => ({ name: 'Depot', area: 'CIRCLE (48.8566 2.3522, 500)' }),
  drivers: () => ({ name: 'Ana', uniqueId: `drv-${Math.random().toString(36).slice(2)}` }),
  calendars: () => ({ name: 'Weekdays', data: ICS }),
  maintenance: () => ({ name: 'Oil', type: 'totalDistance', start: 0, period: 10_000_000 }),
  notifications: () => ({ type: 'alarm', notificators: 'web', always: false, attributes: { alarms: 'sos' } }),
  commands: () => ({ type: 'engineStop', description: 'Stop engine', textChannel: false }),
  'attributes/computed': () => ({
    description: 'Speed km/h',
    attribute: 'speedKmh',
    expression: 'speed * 1.852',
    type: 'number',
  }),
  orders: () => ({
    uniqueId: `ord-${Math.random().toString(36).slice(2)}`,
    description: 'Delivery',
    toAddress: 'Rua A, 1',
  }),
  reports: () => ({ type: 'summary', description: 'Daily summary', attributes: { daily: true } }),
};
