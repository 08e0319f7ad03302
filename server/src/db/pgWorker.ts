// The thread behind db/pgSync.ts: one PostgreSQL connection (node-postgres) that runs each request the main
// thread posts, posts the answer back and wakes the main thread, which waits on a shared flag meanwhile.
import { workerData, type MessagePort } from 'node:worker_threads';
import pg from 'pg';
import type { PgReply, PgRequest } from './pgSync.ts';

const { url, flag, port } = workerData as { url: string; flag: SharedArrayBuffer; port: MessagePort };
const signal = new Int32Array(flag);

// Numbers as SQLite gives them: BIGINT and NUMERIC (SUM, AVG) as numbers, booleans (EXISTS, comparisons) as 1/0.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.BOOL, (v) => (v === 't' ? 1 : 0));

const client = new pg.Client({ connectionString: url, application_name: 'rastro' });
client.on('error', () => undefined); // a dropped connection fails the next query instead of the thread

function reply(message: PgReply): void {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

async function handle(req: PgRequest): Promise<PgReply> {
  switch (req.op) {
    case 'connect':
      await client.connect();
      return { rows: [], rowCount: 0 };
    case 'query': {
      const r = await client.query({ name: req.name, text: req.text, values: req.values });
      return { rows: r.rows as Array<Record<string, unknown>>, rowCount: r.rowCount ?? 0 };
    }
    case 'exec':
      await client.query(req.text);
      return { rows: [], rowCount: 0 };
    case 'close':
      await client.end();
      return { rows: [], rowCount: 0 };
  }
}

port.on('message', (req: PgRequest) => {
  handle(req).then(reply, (err: unknown) => {
    const e = err as {
      message?: string;
      code?: string;
      detail?: string;
      constraint?: string;
      table?: string;
    };
    reply({
      error: {
        message: String(e?.message ?? err),
        code: e?.code,
        detail: e?.detail,
        constraint: e?.constraint,
        table: e?.table,
      },
    });
  });
});
