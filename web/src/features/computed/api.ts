// Calls of the computed-attributes screen: the test endpoint and the device/group links of one attribute
// (admin only, as every write here): GET /api/permissions?deviceId=0&attributeId={id} lists its device links.
import {
  linkChanges,
  readComputedTest,
  type ComputedAttribute,
  type ComputedTestResult,
} from '@rastro/domain';
import { api, HttpError } from '../../api/http.ts';

/** POST /api/attributes/computed/test?deviceId= with the attribute as typed. */
export async function testComputed(
  attribute: ComputedAttribute,
  deviceId: number,
): Promise<ComputedTestResult> {
  try {
    const res = await api.request<string>('POST', '/attributes/computed/test', {
      query: { deviceId },
      body: attribute,
      responseType: 'text',
    });
    return readComputedTest(res.status, res.headers.get('content-type') ?? '', res.data ?? '');
  } catch (err) {
    if (err instanceof HttpError) return readComputedTest(err.status, '', err.text);
    throw err;
  }
}

export type LinkOwner = 'device' | 'group';

/** Ids of the devices (or groups) the attribute is linked to. */
export async function loadLinks(owner: LinkOwner, attributeId: number): Promise<number[]> {
  const key = `${owner}Id`;
  const rows = await api.get<Array<Record<string, number>>>('/permissions', { [key]: 0, attributeId });
  return rows.map((r) => r[key]).filter((id) => typeof id === 'number');
}

/** Links and unlinks so the attribute ends up linked to exactly `wanted`. */
export async function saveLinks(
  owner: LinkOwner,
  attributeId: number,
  current: readonly number[],
  wanted: readonly number[],
): Promise<void> {
  const key = `${owner}Id`;
  const changes = linkChanges(current, wanted);
  for (const id of changes.add) await api.post('/permissions', { [key]: id, attributeId });
  for (const id of changes.remove)
    await api.request('DELETE', '/permissions', { body: { [key]: id, attributeId } });
}
