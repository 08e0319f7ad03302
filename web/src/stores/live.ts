/** Loads devices into the live store (the guard calls this in map-wait mode). */
export async function loadDevices(): Promise<void> {
  // filled in by the live store implementation
}
