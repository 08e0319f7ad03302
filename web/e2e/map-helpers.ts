// Helpers shared by the MAP e2e specs (map, devices, notify): devices made through the API, positions sent over
// the OsmAnd protocol on the web port, and reads of the map's test hook (window.__rastroMap).
import type { APIRequestContext, Page } from '@playwright/test';

export interface MadeDevice {
  id: number;
  name: string;
  uniqueId: string;
}

/**
 * A short unique tag so each test's devices are found by the text query and never collide. Hexadecimal: the
 * language walk (texts-walk-checks.ts) reads every name on the page, and a base-36 tag once ended in "3kn", a
 * knots unit to that check ("Quiet tmx1m4djh3kn" on /users failed texts-walk in CI); a, b, c, d, e and f spell
 * no unit, boolean or time.
 */
export const tag = () => `t${Date.now().toString(16)}${Math.floor(Math.random() * 0x10000).toString(16)}`;

export async function createDevice(
  request: APIRequestContext,
  fields: { name: string; uniqueId: string; category?: string; attributes?: Record<string, unknown> },
  base = '',
): Promise<MadeDevice> {
  const res = await request.post(`${base}/api/devices`, {
    data: { id: 0, attributes: {}, groupId: 0, calendarId: 0, disabled: false, ...fields },
  });
  if (!res.ok()) throw new Error(`create device failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as MadeDevice;
}

/** POST / on the web port, form-encoded, as the Traccar Client app does (CONTRACT §10). */
export async function sendOsmAnd(
  request: APIRequestContext,
  fields: Record<string, string | number | boolean>,
  base = '',
): Promise<void> {
  const form: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) form[k] = String(v);
  const res = await request.post(`${base}/`, { form });
  if (res.status() !== 200) throw new Error(`osmand failed: ${res.status()} ${await res.text()}`);
}

/** Ids of the drawn device features (the map's GeoJSON source). */
export const mapIds = (page: Page) => page.evaluate(() => window.__rastroMap?.featureIds() ?? []);

/** Ids of the rows in the device list, in order. */
export const listIds = (page: Page) =>
  page.$$eval('[data-testid=device-row]', (rows) =>
    rows.map((r) => Number(r.getAttribute('data-device-id'))),
  );

export const only = (ids: number[], mine: MadeDevice[]) => {
  const set = new Set(mine.map((d) => d.id));
  return ids.filter((id) => set.has(id)).sort((a, b) => a - b);
};

export const drawnAt = (page: Page, id: number) =>
  page.evaluate((id) => window.__rastroMap?.positionOf(id) ?? null, id);
