// The visibility rules for the API's hottest reads (issue #30, session 23): the device list's scope (GET
// /api/devices, latest positions) and a single device's check (positions, events). Since session 34 every rule of
// access.ts reads on the store's read pool, so these names are access.ts's own functions, kept for their callers.
export {
  canAccessDevice as canAccessDeviceAsync,
  linkedDeviceIds as linkedDeviceIdsAsync,
  visibleDeviceIds as visibleDeviceIdsAsync,
} from './access.ts';
