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
  /** A tracked COMMIT's transaction id: its outcome is asked about later if the connection is lost (settleLate). */
  xid?: string;
}

interface Connection {
  sql: postgres.Sql;
  dead: boolean;
  /** Waited requests sent on it and not answered yet. */
  waiting: Set<Waiting>;
  /** Why its socket could not be made (the reason reported at start). */
  socketError?: unknown;
  /** Settled when it is lost: a COMMIT held for its predecessor's outcome waits no longer (accept). */
  gone: Promise<void>;
  markGone: () => void;
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
  let markGone!: () => void;
  const gone = new Promise<void>((r) => (markGone = r));
  const c: Connection = {
    dead: false,
    waiting: new Set(),
    sql: undefined as unknown as postgres.Sql,
    gone,
    markGone,
  };
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
interface Tx {
  conn: Connection | null;
  broken: string | null;
  xid?: Promise<unknown>;
  xidValue?: string | null;
  /** A tracked transaction's outcome, settled when its COMMIT is answered (or at its ROLLBACK). */
  outcome?: Outcome;
  /** A chained one's predecessor: its COMMIT waits for that outcome and becomes a ROLLBACK if it failed. */
  after?: Outcome;
  /**
   * The first failure of a write of this transaction posted `later`: its next waited request answers it. Kept per
   * transaction: with two in flight, a write of the next one failing must not fail the previous one's COMMIT.
   */
  failure?: PgFailure | null;
}
let tx: Tx | null = null;

/**
 * Whether a tracked transaction was stored (issue #30: the live core processes its next batch while a COMMIT is in
 * flight; that batch was computed from the first one's rows, so it may be stored only if they were).
 */
interface Outcome {
  done: boolean;
  ok: boolean;
  settled: Promise<void>;
  settle: (ok: boolean) => void;
}

function newOutcome(): Outcome {
  let settle!: (ok: boolean) => void;
  const o: Outcome = { done: false, ok: false, settled: new Promise((r) => (settle = () => r())), settle };
  o.settle = (ok) => {
    if (o.done) return;
    o.done = true;
    o.ok = ok;
    settle(ok);
  };
  return o;
}

/** The latest tracked transaction's outcome (a chained BEGIN's predecessor). */
let lastTracked: Outcome | null = null;
/** Tracked COMMITs by request id: their outcome is settled by the answer posted (post). */
const commits = new Map<number, Outcome>();
/** Requests held, in the order posted, while a tracked COMMIT waits for its transaction's id (accept). */
let gated: PgEnvelope[] | null = null;
let previous: Promise<unknown> = Promise.resolve();
let deferredFailure: PgFailure | null = null;

function post(message: PgReply): void {
  const o = commits.get(message.id);
  if (o) {
    commits.delete(message.id);
    o.settle(!('error' in message));
  }
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
  c.markGone();
  for (const w of c.waiting) {
    if (w.done) continue;
    w.done = true;
    // a COMMIT in flight (w.xid): PostgreSQL may have committed it or not; answered unavailable at once, never
    // waited for (its positions are answered 503, a resend finds them stored if it did: one per device and fix)
    if (!w.xid) unavailable(w.id, reason);
    else {
      unknown.set(w.id, { xid: w.xid, since: Date.now() });
      post({
        id: w.id,
        error: { message: `${reason} (the COMMIT's outcome is unknown)`, unavailable: true, unknown: true },
      });
    }
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

/** COMMITs answered "unknown" (lost), by request id: asked about in the background once connected again. */
const unknown = new Map<number, { xid: string; since: number }>();
/** How long an unknown COMMIT is asked about (PostgreSQL settles it within a statement's timeout). */
const LATE_MS = 60_000;
let asking = false;

/**
 * Asks PostgreSQL (txid_status) what became of the COMMITs answered "unknown", and tells the main thread of each
 * once it is settled (`late`: committed or not; not after LATE_MS). Never holds any other request.
 */
async function settleLate(): Promise<void> {
  if (asking) return;
  asking = true;
  try {
    while (unknown.size > 0 && !closing) {
      const c = conn;
      if (!c || c.dead) return; // the next connection asks
      for (const [id, u] of [...unknown]) {
        const status = await c.sql.unsafe('SELECT txid_status($1::bigint) AS s', [u.xid]).then(
          ([r]) => (r as { s?: string | null } | undefined)?.s,
          () => 'in progress', // asked again (a lost connection ends the loop above)
        );
        if (status === 'in progress' && Date.now() - u.since < LATE_MS) continue;
        unknown.delete(id);
        port.postMessage({ id, late: true, committed: status === 'committed' } satisfies PgReply);
      }
      if (unknown.size > 0) await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    asking = false;
  }
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
  void settleLate();
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

type Answer = { rows: Array<Record<string, unknown>>; rowCount: number };

async function run(c: Connection, req: PgEnvelope): Promise<Answer> {
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
      // several statements: the results of each (a tracked BEGIN's transaction id: the last one's rows)
      const last = (r as { command?: string }).command === undefined ? (r as unknown[]).at(-1) : [];
      return { rows: [...((last ?? []) as Array<Record<string, unknown>>)], rowCount: 0 };
    }
    default:
      return { rows: [], rowCount: 0 };
  }
}

/** The text of each named statement, sent once by the main thread (pgSync.ts `envelope`). */
const texts = new Map<string, string>();

port.on('message', (message: PgEnvelope | PgEnvelope[] | PgReset) => {
  if (Array.isArray(message)) for (const req of message) accept(named(req));
  else if (message.op === 'reset') {
    if (conn) lost(conn, `PostgreSQL did not answer in time`);
  } else accept(named(message));
});

/** A named statement's text: kept when it comes, found by its name when only the name does (in arrival order). */
function named(req: PgEnvelope): PgEnvelope {
  if (req.op !== 'query' || !req.name) return req;
  if (req.text) texts.set(req.name, req.text);
  else req.text = texts.get(req.name) ?? '';
  return req;
}

/**
 * A tracked COMMIT is sent only once its transaction's id is known (so a lost answer can be asked about); it and
 * every request after it wait here meanwhile, in order. The id's read was sent right after BEGIN: usually it is in.
 */
function accept(req: PgEnvelope): void {
  if (gated) {
    gated.push(req);
    return;
  }
  // only on a live connection (on a lost one the COMMIT fails at once): the id's read may then never be answered,
  // and a gate released by the loss must not be set again (that would loop in microtasks, the thread stuck)
  const t = tx;
  const c = t?.conn && !t.conn.dead ? t.conn : null;
  const waitXid = c && t!.xid && t!.xidValue === undefined ? t!.xid : undefined;
  // a chained COMMIT waits for its predecessor's outcome
  const waitAfter = c && t!.after && !t!.after.done ? t!.after.settled : undefined;
  if (c && (waitXid || waitAfter) && req.op === 'exec' && req.text === 'COMMIT') {
    gated = [req];
    void Promise.race([Promise.all([waitXid, waitAfter]), c.gone]).then(() => {
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
  let text = req.op === 'exec' ? req.text : '';
  if (text === 'BEGIN') {
    tx = { conn, broken: conn ? null : lastReason };
    if (req.op === 'exec' && req.track) {
      if (req.chained && lastTracked) tx.after = lastTracked;
      tx.outcome = lastTracked = newOutcome();
    }
  }
  const ends = text === 'COMMIT' || text === 'ROLLBACK';
  const current = tx;
  if (ends) tx = null;
  if (current?.outcome && ends) {
    if (text === 'ROLLBACK') current.outcome.settle(false);
    else commits.set(req.id, current.outcome);
    if (text === 'COMMIT' && current.after && !current.after.ok) {
      // the batch before it was not stored: this one, computed from it, is rolled back and refused
      text = 'ROLLBACK';
      req = { op: 'exec', text, id: req.id, refuse: 'an earlier batch was not stored' };
    }
  }
  // a transaction whose connection was lost: nothing more of it is sent; its ROLLBACK has nothing to undo
  if (current && (current.broken || current.conn !== conn || !conn || conn.dead)) {
    const reason = current.broken ?? lastReason;
    if (text === 'ROLLBACK' && !(req.op === 'exec' && req.refuse))
      post({ id: req.id, rows: [], rowCount: 0 });
    else unavailable(req.id, reason);
    return;
  }
  const c = conn;
  if (!c || c.dead) {
    unavailable(req.id, lastReason);
    return;
  }
  // a tracked BEGIN reads its transaction's id in the same message (one statement fewer per batch, session 28);
  // the COMMIT waits for it (null: the read failed, and the BEGIN with it: the transaction fails)
  const tracked = text === 'BEGIN' && req.op === 'exec' && req.track && current;
  if (tracked) req = { ...req, text: 'BEGIN; SELECT txid_current()::text AS x' } as PgEnvelope;
  const sent = send(c, req, current, text === 'COMMIT' ? (current?.xidValue ?? undefined) : undefined);
  if (tracked) current.xid = sent.then((r) => (current.xidValue = r ? String(r.rows[0]?.x) : null));
}

// Requests are started in the order posted (postgres.js sends each at once and answers in order). A request posted
// `later` (a write inside a transaction whose answer nobody waits for) gets no reply; if it fails, the next request
// of the same transaction (`owner`) that is waited for answers that failure instead, so the transaction's COMMIT
// fails (PostgreSQL rolled it back). PostgreSQL ends the transaction itself: no ROLLBACK is sent after it, which
// with the next transaction already on the connection (two in flight) would end that one instead.
function send(c: Connection, req: PgEnvelope, owner: Tx | null, xid?: string): Promise<Answer | void> {
  if (!req.id) {
    const running = run(c, req).catch((err: unknown) => {
      if (connectionError(err)) lost(c, String((err as Error)?.message ?? err));
      else if (owner) owner.failure ??= failure(err);
      else deferredFailure ??= failure(err);
    });
    return (previous = running);
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
  return running.then((r) => {
    c.waiting.delete(w);
    if (w.done) return;
    w.done = true;
    const f = owner ? owner.failure : deferredFailure;
    if (owner) owner.failure = null;
    else deferredFailure = null;
    if (req.op === 'exec' && req.refuse)
      unavailable(req.id, req.refuse); // rolled back, refused anyway
    else if (f) post({ id: req.id, error: f });
    else post({ ...r, id: req.id } as PgReply);
  });
}
