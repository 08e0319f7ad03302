// The thread behind db/pgSync.ts: one PostgreSQL connection (postgres.js) that runs each request the main thread
// posts, posts the answer back (with the request's id) and wakes the main thread, which waits on a shared flag
// meanwhile. Requests are sent in order without waiting for the previous answer (postgres.js pipelines them on the
// connection), which is what lets a batch of writes posted `later` cost one round trip instead of one each.
//
// Faults (issue #30). Each connection is a postgres.js instance that may open one socket only: when it is lost
// (terminated, reset, PostgreSQL stopped) postgres.js would otherwise open a new one and send what was still queued
// there outside the transaction it belonged to (half a batch committed), and left some queued queries waiting for
// ever (the hang after a reset). Instead, the moment a connection is lost every call waiting on it is answered
// "unavailable", a transaction begun on it fails up to its end (its COMMIT fails; PostgreSQL rolled it back), the
// shared generation counter moves on (the leader's lock went with the connection: db/cluster.ts), and a new
// connection is made in the background. Until it is up, calls are answered "unavailable" at once.
import { connect as netConnect, type Socket } from 'node:net';
import { workerData, type MessagePort } from 'node:worker_threads';
import postgres from 'postgres';
import type { PgEnvelope, PgFailure, PgReply, PgReset } from './pgSync.ts';

const { url, flag, port, statementTimeoutMs, connectTimeoutS } = workerData as {
  url: string;
  flag: SharedArrayBuffer;
  port: MessagePort;
  statementTimeoutMs: number;
  connectTimeoutS: number;
};
const signal = new Int32Array(flag);
// A lost connection's queued queries are rejected by postgres.js after they were answered here (or were never
// ours to await): such a rejection must not end the thread.
process.on('unhandledRejection', () => undefined);
/** Pause between two attempts to connect again. */
const RETRY_MS = 500;

interface Waiting {
  id: number;
  done: boolean;
  /** A tracked COMMIT's transaction id: its outcome is asked for if the connection is lost (outcome). */
  xid?: string;
}

interface Connection {
  sql: postgres.Sql;
  dead: boolean;
  /** Waited requests sent on it and not answered yet. */
  waiting: Set<Waiting>;
  /** Why its socket could not be made (the reason reported at start). */
  socketError?: unknown;
}

// Numbers as SQLite gives them: BIGINT and NUMERIC (SUM, AVG) as numbers, booleans (EXISTS, comparisons) as 1/0.
const types = {
  int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
  numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
  bool: {
    to: 16,
    from: [16],
    serialize: (x: unknown) => (x ? 't' : 'f'),
    parse: (x: string) => (x === 't' ? 1 : 0),
  },
};

function open(): Connection {
  let sockets = 0;
  const c: Connection = { dead: false, waiting: new Set(), sql: undefined as unknown as postgres.Sql };
  c.sql = postgres(url, {
    max: 1,
    prepare: true,
    onnotice: () => undefined,
    connect_timeout: connectTimeoutS,
    max_lifetime: 0, // never closed on purpose: the leader's advisory lock lives on it
    connection: { application_name: 'rastro', statement_timeout: statementTimeoutMs },
    types,
    // one socket per instance: never a second one that would carry queued statements out of their transaction
    socket: (o: { host: string[]; port: number[]; path?: string }) => {
      if (sockets++ > 0 || c.dead) return Promise.reject(new Error('connection lost'));
      return connectSocket(o, c).catch((err: unknown) => {
        c.socketError ??= err;
        throw err;
      });
    },
    onclose: () => lost(c, 'connection lost'),
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  return c;
}

function connectSocket(o: { host: string[]; port: number[]; path?: string }, c: Connection): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = o.path ? netConnect(o.path) : netConnect(o.port[0], o.host[0]);
    const timer = setTimeout(() => {
      s.destroy();
      reject(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' }));
    }, connectTimeoutS * 1000);
    s.once('connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      s.on('error', (err) => (c.socketError ??= err)); // a reset during the handshake names the reason
      resolve(s);
    });
    s.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

let conn: Connection | null = null;
let lastReason = 'not connected yet';
let retry: NodeJS.Timeout | null = null;
let closing = false;
/**
 * The transaction in progress: the connection its BEGIN went to, why it can no longer commit, and for a tracked one
 * (a COMMIT the main thread does not wait for) its id, read right after BEGIN (null: the read failed).
 */
let tx: {
  conn: Connection | null;
  broken: string | null;
  xid?: Promise<unknown>;
  xidValue?: string | null;
} | null = null;
/** Requests held, in the order posted, while a tracked COMMIT waits for its transaction's id (accept). */
let gated: PgEnvelope[] | null = null;
let previous: Promise<unknown> = Promise.resolve();
let deferredFailure: PgFailure | null = null;

function post(message: PgReply): void {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

function unavailable(id: number, reason: string): void {
  if (id) post({ id, error: { message: reason, unavailable: true } });
}

/** SQLSTATEs and client errors that mean the connection is gone. */
function connectionError(err: unknown): boolean {
  const code = String((err as { code?: string })?.code ?? '');
  return (
    /^(08|57P0)/.test(code) ||
    /^(CONNECTION_|CONNECT_TIMEOUT|ECONNRESET|EPIPE|ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)/.test(
      code,
    ) ||
    /connection lost/.test(String((err as Error)?.message))
  );
}

/** The connection is gone: answer everything waiting on it, break its transaction, connect again. */
function lost(c: Connection, reason: string): void {
  if (c.dead) return;
  c.dead = true;
  for (const w of c.waiting) {
    if (w.done) continue;
    w.done = true;
    if (w.xid) void outcome(w.id, w.xid, reason);
    else unavailable(w.id, reason);
  }
  c.waiting.clear();
  if (tx && tx.conn === c) tx.broken ??= reason;
  void c.sql.end({ timeout: 0 }).catch(() => undefined);
  if (conn === c) {
    conn = null;
    lastReason = reason;
    Atomics.add(signal, 1, 1);
    previous = Promise.resolve();
    deferredFailure = null;
    reconnectSoon(0);
  }
}

/**
 * A COMMIT whose answer went with its connection: PostgreSQL may have committed it or not. Asked on the next
 * connection (txid_status) until it says, within a statement's timeout: committed is answered as stored, anything
 * else (aborted, unknown, no connection in time) as unavailable, so nothing refused is stored.
 */
async function outcome(id: number, xid: string, reason: string): Promise<void> {
  const deadline = Date.now() + statementTimeoutMs;
  while (Date.now() < deadline && !closing) {
    const c = conn;
    if (c && !c.dead) {
      try {
        const [r] = await c.sql.unsafe('SELECT txid_status($1::bigint) AS s', [xid]);
        const status = (r as { s?: string | null } | undefined)?.s;
        if (status === 'committed') return post({ id, rows: [], rowCount: 0 });
        if (status !== 'in progress') return unavailable(id, reason); // aborted, or too old to know
      } catch {
        // this connection is gone too: the next one
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  unavailable(id, reason);
}

function reconnectSoon(delay: number): void {
  if (closing || retry || conn) return;
  retry = setTimeout(() => {
    retry = null;
    connectNow().catch(() => reconnectSoon(RETRY_MS));
  }, delay);
}

async function connectNow(): Promise<void> {
  const c = open();
  try {
    await c.sql`SELECT 1`;
  } catch (err) {
    c.dead = true;
    void c.sql.end({ timeout: 0 }).catch(() => undefined);
    lastReason = describe(c.socketError ?? err);
    throw err;
  }
  if (c.dead) throw new Error(lastReason);
  if (closing) {
    await c.sql.end({ timeout: 1 });
    return;
  }
  conn = c;
}

/** Why a connection could not be made, in words an operator acts on. */
function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const code = String(e?.code ?? '');
  const msg = String(e?.message ?? err);
  if (code === '28P01' || code === '28000' || /password|authentication/i.test(msg))
    return `authentication failed (${msg})`;
  if (code === '3D000') return `database does not exist (${msg})`;
  if (code === 'CONNECT_TIMEOUT' || /timeout/i.test(msg))
    return `timeout: no answer within ${connectTimeoutS} s`;
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNRESET/.test(code + msg))
    return `unreachable (${code || msg})`;
  if (msg === 'connection lost') return 'unreachable (the connection was closed before PostgreSQL answered)';
  return msg;
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
    // 57014: statement_timeout (or a cancel) — PostgreSQL did not answer in time
    unavailable: e?.code === '57014' || undefined,
  };
}

async function run(
  c: Connection,
  req: PgEnvelope,
): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number }> {
  switch (req.op) {
    case 'query': {
      const r = await c.sql.unsafe(req.text, req.values as never[], { prepare: true });
      return { rows: [...r] as Array<Record<string, unknown>>, rowCount: r.count ?? 0 };
    }
    case 'exec': {
      const r = await c.sql.unsafe(req.text).simple(); // several statements at once (migrations), no parameters
      // COMMIT of a transaction in which a statement failed (and the caller went on) answers ROLLBACK, not an
      // error: made one here, so nothing of it counts as stored
      if (/^COMMIT/i.test(req.text) && (r as { command?: string }).command === 'ROLLBACK')
        throw new Error('the transaction failed and was rolled back');
      return { rows: [], rowCount: 0 };
    }
    default:
      return { rows: [], rowCount: 0 };
  }
}

port.on('message', (message: PgEnvelope | PgEnvelope[] | PgReset) => {
  if (Array.isArray(message)) for (const req of message) accept(req);
  else if (message.op === 'reset') {
    if (conn) lost(conn, `PostgreSQL did not answer in time`);
  } else accept(message);
});

/**
 * A tracked COMMIT is sent only once its transaction's id is known (so a lost answer can be asked about); it and
 * every request after it wait here meanwhile, in order. The id's read was sent right after BEGIN: usually it is in.
 */
function accept(req: PgEnvelope): void {
  if (gated) {
    gated.push(req);
    return;
  }
  const pending = tx?.xid;
  if (pending && tx!.xidValue === undefined && req.op === 'exec' && req.text === 'COMMIT') {
    gated = [req];
    void pending.then(() => {
      const held = gated!;
      gated = null;
      for (const r of held) accept(r);
    });
    return;
  }
  receive(req);
}

function receive(req: PgEnvelope): void {
  if (req.op === 'connect') {
    connectNow().then(
      () => post({ id: req.id, rows: [], rowCount: 0 }),
      () => post({ id: req.id, error: { message: lastReason } }), // at start: the server does not start
    );
    return;
  }
  if (req.op === 'close') {
    closing = true;
    if (retry) clearTimeout(retry);
    const c = conn;
    conn = null;
    void (c ? c.sql.end({ timeout: 5 }) : Promise.resolve()).then(
      () => post({ id: req.id, rows: [], rowCount: 0 }),
      () => post({ id: req.id, rows: [], rowCount: 0 }),
    );
    return;
  }
  const text = req.op === 'exec' ? req.text : '';
  if (text === 'BEGIN') tx = { conn, broken: conn ? null : lastReason };
  const ends = text === 'COMMIT' || text === 'ROLLBACK';
  const current = tx;
  if (ends) tx = null;
  // a transaction whose connection was lost: nothing more of it is sent; its ROLLBACK has nothing to undo
  if (current && (current.broken || current.conn !== conn || !conn || conn.dead)) {
    const reason = current.broken ?? lastReason;
    if (text === 'ROLLBACK') post({ id: req.id, rows: [], rowCount: 0 });
    else unavailable(req.id, reason);
    return;
  }
  const c = conn;
  if (!c || c.dead) {
    unavailable(req.id, lastReason);
    return;
  }
  send(c, req, text === 'COMMIT' ? (current?.xidValue ?? undefined) : undefined);
  if (text === 'BEGIN' && req.op === 'exec' && req.track && current) {
    // started through run() as BEGIN was, so it runs right after it, inside the transaction (postgres.js starts a
    // query a microtask after it is awaited: one started directly would run before BEGIN); the COMMIT waits for it
    current.xid = run(c, { op: 'query', text: 'SELECT txid_current()::text AS x', values: [], id: 0 }).then(
      (r) => (current.xidValue = String(r.rows[0].x)),
      () => (current.xidValue = null),
    );
  }
}

// Requests are started in the order posted (postgres.js sends each at once and answers in order). A request posted
// `later` (a write inside a transaction whose answer nobody waits for) gets no reply; if it fails, the next request
// that is waited for answers that failure instead, so the transaction's COMMIT fails and it is rolled back.
function send(c: Connection, req: PgEnvelope, xid?: string): void {
  if (!req.id) {
    const running = run(c, req).catch((err: unknown) => {
      if (connectionError(err)) lost(c, String((err as Error)?.message ?? err));
      else deferredFailure ??= failure(err);
    });
    previous = running;
    return;
  }
  const w: Waiting = { id: req.id, done: false, xid };
  c.waiting.add(w);
  const before = previous;
  const running = run(c, req).then(
    async (r) => {
      await before;
      return r as PgReply | { rows: Array<Record<string, unknown>>; rowCount: number };
    },
    async (err: unknown) => {
      if (connectionError(err)) lost(c, String((err as Error)?.message ?? err));
      await before;
      return { id: req.id, error: failure(err) } as PgReply;
    },
  );
  previous = running;
  void running.then(async (r) => {
    c.waiting.delete(w);
    if (w.done) return;
    w.done = true;
    if (deferredFailure) {
      const f = deferredFailure;
      deferredFailure = null;
      if (req.op === 'exec' && /^(ROLLBACK|COMMIT)/.test(req.text))
        await c.sql.unsafe('ROLLBACK').catch(() => undefined);
      post({ id: req.id, error: f });
      return;
    }
    post({ ...r, id: req.id } as PgReply);
  });
}
