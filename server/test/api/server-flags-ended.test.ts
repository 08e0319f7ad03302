// A request's one read of the server flags (server/src/serverFlags.ts) lasts as long as the request: work the
// request started that outlives its answer (a timer, a listener) still runs in its AsyncLocalStorage scope, and from
// the answer on (onResponse) it reads the flags afresh instead of keeping the request's copy for ever. Fastify with
// the scope's hooks alone; the store's read replaced by a counter, so every read is seen.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import * as serverRepo from '../../src/db/repos/server.ts';
import type { AppContext } from '../../src/context.ts';
import { registerServerFlagsScope, serverFlagsOnce } from '../../src/serverFlags.ts';

vi.mock('../../src/db/repos/server.ts', () => ({ serverFlagsRowAsync: vi.fn() }));
const reads = vi.mocked(serverRepo.serverFlagsRowAsync);

const ctx = { store: { sql: {} } } as unknown as AppContext;
let app: FastifyInstance;
let later: Promise<string> = Promise.resolve('');

beforeAll(async () => {
  app = Fastify();
  registerServerFlagsScope(app);
  app.get('/flags', async () => {
    const first = await serverFlagsOnce(ctx);
    const again = await serverFlagsOnce(ctx);
    // started by the request, finished after its answer
    later = new Promise((resolve) => {
      setTimeout(() => void serverFlagsOnce(ctx).then((f) => resolve(f.attributes)), 30);
    });
    return { first: first.attributes, again: again.attributes };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  let n = 0;
  reads.mockReset();
  reads.mockImplementation(async () => {
    n++;
    return {
      readonly: 0,
      deviceReadonly: 0,
      limitCommands: 0,
      disableReports: 0,
      fixedEmail: 0,
      registration: 0,
      attributes: `read ${n}`,
    } as Awaited<ReturnType<typeof serverRepo.serverFlagsRowAsync>>;
  });
});

it('reads once while the request runs, and afresh in work that outlives its answer', async () => {
  const res = await app.inject({ method: 'GET', url: '/flags' });
  expect(res.json()).toEqual({ first: 'read 1', again: 'read 1' });
  expect(reads).toHaveBeenCalledTimes(1);
  expect(await later).toBe('read 2'); // the request was answered: its copy is not kept
  expect(reads).toHaveBeenCalledTimes(2);
});

it('each request reads its own copy', async () => {
  const a = await app.inject({ method: 'GET', url: '/flags' });
  await later;
  const b = await app.inject({ method: 'GET', url: '/flags' });
  await later;
  expect([a.json<{ first: string }>().first, b.json<{ first: string }>().first]).toEqual([
    'read 1',
    'read 3',
  ]);
});
