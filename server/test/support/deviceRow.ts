// A device row's columns besides its name and uniqueId, for tests that insert devices through the repositories'
// query builder (db/repos/query.ts).
export const DEVICE_ROW_BASE = {
  disabled: 0,
  positionId: 0,
  groupId: 0,
  calendarId: 0,
  status: null,
  lastUpdate: null,
  phone: null,
  model: null,
  contact: null,
  category: null,
  attributes: '{}',
  expirationTime: null,
};
