// The thread behind db/pgSync.ts: one PostgreSQL connection (postgres.js) that runs each request the main thread
// posts, posts the answer back and wakes the main thread, which waits on a shared flag meanwhile. Requests are
// sent in order without waiting for the previous answer (postgres.js pipelines them on the connection), which is
// what lets a batch of writes posted `later` cost one round trip instead of one each.
import { workerData, type MessagePort } from 'node:worker_threads';
import postgres from 'postgres';
import type { PgFailure, PgReply, PgRequest } from './pgSync.ts';

const { url, flag, port } = workerData as { url: string; flag: SharedArrayBuffer; port: MessagePort };
const signal = new Int32Array(flag);

// Numbers as SQLite gives them: BIGINT and NUMERIC (SUM, AVG) as numbers, booleans (EXISTS, comparisons) as 1/0.
const sql = postgres(url, {
  max: 1,
  prepare: true,
  onnotice: () => undefined,
  connection: { application_name: 'rastro' },
  types: {
    int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    bool: {
      to: 16,
      from: [16],
      serialize: (x: unknown) => (x ? 't' : 'f'),
      parse: (x: string) => (x === 't' ? 1 : 0),
    },
  },
});

function reply(message: PgReply): void {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

async function handle(req: PgRequest): Promise<PgReply> {
  switch (req.op) {
    case 'connect':
      await sql`SELECT 1`;
      return { rows: [], rowCount: 0 };
    case 'query': {
      const r = await sql.unsafe(req.text, req.values as never[], { prepare: true });
      return { rows: [...r] as Array<Record<string, unknown>>, rowCount: r.count ?? 0 };
    }
    case 'exec': {
      const r = await sql.unsafe(req.text).simple(); // several statements at once (migrations), no parameters
      // COMMIT of a transaction in which a statement failed (and the caller went on) answers ROLLBACK, not an
      // error: made one here, so nothing of it counts as stored
      if (/^COMMIT/i.test(req.text) && (r as { command?: string }).command === 'ROLLBACK')
        throw new Error('the transaction failed and was rolled back');
      return { rows: [], rowCount: 0 };
    }
    case 'close':
      await sql.end({ timeout: 5 });
      return { rows: [], rowCount: 0 };
  }
}

function failure(err: unknown): PgFailure {
  const e = err as {
    message?: string;
    code?: string;
    detail?: string;
    constraint_name?: string;
    table_name?: string;
  };
  return {
    message: String(e?.message ?? err),
    code: e?.code,
    detail: e?.detail,
    constraint: e?.constraint_name,
    table: e?.table_name,
  };
}

// Requests are started in the order posted (postgres.js sends each at once and answers in order). A request marked
// `later` (a write inside a transaction whose answer nobody waits for) gets no reply; if it fails, the next request
// that is waited for answers that failure instead, so the transaction's COMMIT fails and it is rolled back.
let previous: Promise<unknown> = Promise.resolve();
let deferredFailure: PgFailure | null = null;
port.on('message', (message: PgRequest | PgRequest[]) => {
  if (Array.isArray(message)) for (const req of message) receive(req);
  else receive(message);
});

function receive(req: PgRequest): void {
  const later = 'later' in req && req.later === true;
  if (later) {
    const running = handle(req).catch((err: unknown) => {
      deferredFailure ??= failure(err);
    });
    previous = running;
    return;
  }
  const before = previous;
  const running = handle(req).then(
    async (r) => {
      await before;
      return r;
    },
    async (err: unknown) => {
      await before;
      return { error: failure(err) } as PgReply;
    },
  );
  previous = running;
  void running.then(async (r) => {
    if (deferredFailure) {
      const f = deferredFailure;
      deferredFailure = null;
      if (req.op === 'exec' && /^(ROLLBACK|COMMIT)/.test(req.text))
        await sql.unsafe('ROLLBACK').catch(() => undefined);
      reply({ error: f });
      return;
    }
    reply(r);
  });
}
