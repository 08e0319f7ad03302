import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json } from '../components/testing.tsx';
import { useSession } from '../stores/session.ts';
import { isUpdate } from '@rastro/domain';
import { fetchServer, resourceClient } from './resources.ts';

afterEach(() => vi.unstubAllGlobals());

describe('generic resource client', () => {
  it('saves with PUT /{type}/{id} when id > 0, else POST /{type} (SPEC §5)', async () => {
    const f = fakeFetch((_url, init) => json({ id: 9, ...(JSON.parse(String(init.body)) as object) }));
    vi.stubGlobal('fetch', f.fn);
    await resourceClient.save('groups', { id: 4, name: 'A' });
    await resourceClient.save('groups', { id: 0, name: 'B' });
    await resourceClient.save('attributes/computed', { description: 'C' });
    expect(f.calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'PUT /api/groups/4',
      'POST /api/groups',
      'POST /api/attributes/computed',
    ]);
    expect(isUpdate(-1)).toBe(false);
  });

  it('lists with repeated query params, deletes by id, and sends shares to /{ns}', async () => {
    const f = fakeFetch(() => json([]));
    vi.stubGlobal('fetch', f.fn);
    await resourceClient.list('devices', { id: [1, 2], all: true });
    await resourceClient.remove('geofences', 3);
    await resourceClient.list('shares');
    expect(f.calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /api/devices?id=1&id=2&all=true',
      'DELETE /api/geofences/3',
      'GET /rastro/shares',
    ]);
  });

  it('fetchServer reads the licensemode and devicelimit headers into the session store', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch(() => json({ id: 1, attributes: {} }, 200, { licensemode: 'plus', devicelimit: '25' })).fn,
    );
    await fetchServer();
    expect(useSession.getState()).toMatchObject({ isPlus: true, deviceLimit: 25, server: { id: 1 } });
    vi.stubGlobal(
      'fetch',
      fakeFetch(() => json({ id: 1, attributes: {} }, 200, { licensemode: 'basic' })).fn,
    );
    await fetchServer();
    expect(useSession.getState()).toMatchObject({ isPlus: false, deviceLimit: 0 });
  });
});
