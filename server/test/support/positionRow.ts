// A position row fixed at one time (server, device and fix time alike), for tests that insert positions through the
// repositories' query builder (db/repos/query.ts): its place, speed and attributes given, the rest a plain fix.
export function positionRow(
  deviceId: number,
  time: string,
  fix: { latitude: number; longitude: number; speed: number; attributes: string },
) {
  return {
    deviceId,
    protocol: 'osmand',
    serverTime: time,
    deviceTime: time,
    fixTime: time,
    valid: 1,
    altitude: 0,
    course: 0,
    accuracy: 0,
    network: null,
    geofenceIds: null,
    ...fix,
  };
}
