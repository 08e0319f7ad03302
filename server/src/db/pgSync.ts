// A PostgreSQL connection the main thread calls synchronously, as it calls better-sqlite3: each request is posted
// to a worker thread (db/pgWorker.ts) that owns the connection, and the main thread waits on a shared flag until
// the answer is there (Atomics.wait), then reads it with receiveMessageOnPort. The server's modules keep one code
// path for both stores, and a transaction is atomic for the same reason as on SQLite: nothing else runs on the
// main thread meanwhile. Why this rather than an asynchronous store: docs/decisions/04-postgresql-sync-interface.md.
//
// Faults (issue #30): every waited request carries an id and its answer is the reply with that id (a late answer
// to a request that timed out is dropped, never read as the next one's); the wait is bounded (WAIT_MS, just above
// the connection's statement timeout); a lost connection or a database that does not answer fails the call with
// DatabaseUnavailable at once while the worker reconnects in the background. A worker thread that stopped (a
// crash) is replaced by a new one at the next request, with a new connection generation (the leader lock went with
// it); a request waiting when it stopped fails after WAIT_MS, as for a database that does not answer.
//
// A request may also be posted without waiting (`post`, the ingestion's COMMIT): its answer comes to a callback
// keyed by its id, from the port's message event while the main thread is free, or met by a waited request's loop
// (handed on in a microtask, never dropped as a stale answer nor run inside that request), or at `settle`. It is
// bounded by the same wait: past it the connection is reset and the callback gets DatabaseUnavailable.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { DatabaseUnavailable } from './sql.ts';

export type PgRequest =
  | { op: 'connect' }
  /**
   * A statement with its values. A named one's text travels to a worker once: after that only its name and values
   * do (the worker keeps the text by name: less to clone per statement, the same string each time on its side).
   */
  | { op: 'query'; name?: string; text: string; values: unknown[]; later?: boolean }
  | {
      op: 'exec';
      text: string;
      later?: boolean;
      track?: boolean;
      /** A tracked BEGIN sent while the previous tracked COMMIT is unanswered: committed only if that one was. */
      chained?: boolean;
      /** Set by the worker: run as given (a ROLLBACK) and answered unavailable for this reason. */
      refuse?: string;
    }
  | { op: 'close' };

/** What travels to the worker: a request with its id (0 for one posted `later`, which gets no reply). */
export type PgEnvelope = PgRequest & { id: number };

/** Sent outside the order of requests: the main thread gave up waiting, the connection is to be dropped. */
export interface PgReset {
  op: 'reset';
}

export interface PgFailure {
  message: string;
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
  /** The connection was lost or the database did not answer: the call may succeed later. */
  unavailable?: boolean;
  /** A COMMIT whose answer went with its connection: PostgreSQL may have committed it (a `late` reply follows). */
  unknown?: boolean;
}

export type PgReply = { id: number } & (
  | { rows: Array<Record<string, unknown>>; rowCount: number }
  | { error: PgFailure }
  /** What became of a COMMIT answered `unknown`, asked about once connected again (pgWorker.ts settleLate). */
  | { late: true; committed: boolean }
);

/** An error PostgreSQL answered, with its SQLSTATE code and details. */
export class PgError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
  constructor(f: PgFailure, sql?: string) {
    super(sql ? `${f.message} (in: ${sql.slice(0, 300)})` : f.message);
    this.name = 'PgError';
    Object.assign(this, { code: f.code, detail: f.detail, constraint: f.constraint, table: f.table });
  }
}

/** The connection's statement_timeout (pgWorker.ts): a statement running longer fails. */
export const STATEMENT_TIMEOUT_MS = 10_000;
/** How long the main thread waits for one answer: a little longer than a statement may run. */
export const WAIT_MS = 12_000;
/** How many writes posted `later` wait to travel together (a waited request sends them at once). */
const LATER_BATCH = 32;

export interface PgSyncOptions {
  /** The wait for one answer (tests shorten it). */
  waitMs?: number;
  statementTimeoutMs?: number;
  connectTimeoutS?: number;
}

export class PgSync {
  /** [0]: the "answer posted" flag; [1]: the connection's generation, increased by the worker when one is lost. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private port!: MessagePort;
  private worker!: Worker;
  private readonly waitMs: number;
  private closed = false;
  /** The worker thread stopped (seen at its exit event): the next request starts another. */
  private stopped = false;
  /** Worker threads started after the first one (diagnostics and tests). */
  restarts = 0;
  private later: PgEnvelope[] = [];
  private nextId = 1;
  /** Round trips made (diagnostics and the benchmark). */
  requests = 0;
  /** Requests posted without waiting, by id: what to call with their answer (`post`). */
  private readonly waiters = new Map<number, { done: (reply: PgReply) => void; timer: NodeJS.Timeout }>();
  /** Answers to posted requests met by a waited request's loop, handed on in a microtask. */
  private arrived: PgReply[] = [];
  /** Posted COMMITs answered with an unknown outcome, by id: what to call once it is known (`late`). */
  private readonly lates = new Map<number, (committed: boolean) => void>();
  /** Names of the statements whose text the current worker has (sent once each: `envelope`). */
  private named = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly options: PgSyncOptions = {},
  ) {
    this.waitMs = options.waitMs ?? WAIT_MS;
    this.start();
    try {
      this.request({ op: 'connect' });
    } catch (err) {
      this.closed = true;
      void this.worker.terminate();
      throw err;
    }
  }

  /** Starts the worker thread that owns the connection. */
  private start(): void {
    const { port1, port2 } = new MessageChannel();
    // From the TypeScript sources through a loader (db/pgWorkerBoot.mjs), or the production build's pgWorker.js.
    const fromSource = import.meta.url.endsWith('.ts');
    const worker = new Worker(new URL(fromSource ? './pgWorkerBoot.mjs' : './pgWorker.js', import.meta.url), {
      workerData: {
        url: this.url,
        flag: this.signal.buffer,
        port: port2,
        statementTimeoutMs: this.options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
        connectTimeoutS: this.options.connectTimeoutS ?? 10,
      },
      transferList: [port2],
    });
    worker.on('error', () => undefined); // the exit follows
    worker.once('exit', () => {
      if (this.worker === worker && !this.closed) this.stopped = true;
      if (this.worker === worker) this.failPosted('the database worker stopped');
    });
    worker.unref();
    this.named = new Set(); // a new worker knows no statement yet
    // answers to requests posted without waiting, while the main thread is free (waited ones are read in request)
    port1.on('message', (reply: PgReply) => this.deliver(reply));
    port1.unref();
    this.worker = worker;
    this.port = port1;
  }

  /**
   * A new worker thread and connection in place of one that stopped. The exit event that tells runs between
   * synchronous transactions, so this happens at a transaction's first request (its BEGIN) or outside one; writes
   * still pending would belong to a transaction the old connection took with it: that call fails.
   */
  private restart(): void {
    this.stopped = false;
    this.restarts++;
    this.failPosted('the database worker stopped');
    this.lates.clear(); // the outcomes asked about went with the thread
    const pending = this.later.length;
    this.later = [];
    this.port.close();
    Atomics.add(this.signal, 1, 1); // a new connection: the leader's advisory lock is gone (db/cluster.ts)
    this.start();
    this.request({ op: 'connect' });
    if (pending) throw new DatabaseUnavailable('the database worker stopped during a transaction');
  }

  /** Increases each time the worker's connection is lost (the leader lock goes with it: db/cluster.ts). */
  get generation(): number {
    return Atomics.load(this.signal, 1);
  }

  request(req: PgRequest, sql?: string): { rows: Array<Record<string, unknown>>; rowCount: number } {
    if (this.closed) throw new Error('the PostgreSQL store is closed');
    if (this.stopped) this.restart();
    this.requests++;
    const id = this.nextId++;
    this.postAfterLater(this.envelope(req, id));
    const deadline = Date.now() + (req.op === 'connect' ? Math.max(this.waitMs, 15_000) : this.waitMs);
    for (;;) {
      // cleared before the port is read: an answer posted after the read sets it again, and the wait returns
      Atomics.store(this.signal, 0, 0);
      // every answer waiting on the port: older ones (requests that timed out) are dropped
      for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
        const reply = got.message as PgReply;
        if (reply.id !== id && reply.id !== -1) {
          // a posted request's answer goes to its callback after this call; any other is a late one, dropped
          if (this.waiters.has(reply.id) || 'late' in reply) this.handOn(reply);
          continue; // -1: the worker could not start
        }
        if ('late' in reply) continue; // never a waited request's own
        if ('error' in reply) {
          if (reply.error.unavailable) throw new DatabaseUnavailable(reply.error.message);
          throw new PgError(reply.error, sql);
        }
        return reply;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        // the connection is dropped and made again; whatever it was doing is rolled back by PostgreSQL
        this.port.postMessage({ op: 'reset' } satisfies PgReset);
        throw new DatabaseUnavailable(`PostgreSQL did not answer within ${Math.round(this.waitMs / 1000)} s`);
      }
      Atomics.wait(this.signal, 0, 0, left);
    }
  }

  /**
   * Posts a request whose answer the caller does not wait for: `done` is called once with it (its rows, or an error
   * for a failure, DatabaseUnavailable past the wait), from the event loop or from `settle`. A tracked COMMIT whose
   * connection was lost is answered DatabaseUnavailable at once, and `late` is called later with whether it did
   * commit (asked once connected again), if the worker could tell.
   */
  post(
    req: PgRequest,
    done: (err: Error | null, rows?: Array<Record<string, unknown>>) => void,
    sql?: string,
    late?: (committed: boolean) => void,
  ): void {
    if (this.closed) throw new Error('the PostgreSQL store is closed');
    if (this.stopped) this.restart();
    this.requests++;
    const id = this.nextId++;
    const timer = setTimeout(() => {
      if (!this.waiters.delete(id)) return;
      this.port.postMessage({ op: 'reset' } satisfies PgReset);
      done(new DatabaseUnavailable(`PostgreSQL did not answer within ${Math.round(this.waitMs / 1000)} s`));
    }, this.waitMs);
    this.waiters.set(id, {
      timer,
      done: (reply) => {
        if ('rows' in reply) done(null, reply.rows);
        else if (!('error' in reply)) return;
        else if (reply.error.unavailable) {
          if (reply.error.unknown && late) this.lates.set(id, late);
          done(new DatabaseUnavailable(reply.error.message));
        } else done(new PgError(reply.error, sql));
      },
    });
    this.postAfterLater(this.envelope(req, id));
  }

  /**
   * What travels for a request: a named statement's text only the first time the worker gets it (an empty text
   * after that). Made in the order the worker receives them: a request posted, or one of `later` flushed first.
   */
  private envelope(req: PgRequest, id: number): PgEnvelope {
    if (req.op !== 'query' || !req.name) return { ...req, id };
    if (!this.named.has(req.name)) {
      this.named.add(req.name);
      return { ...req, id };
    }
    return { op: 'query', name: req.name, text: '', values: req.values, later: req.later, id };
  }

  /** Waits here for every posted request's answer and calls their callbacks (a batch must be settled first). */
  settle(): void {
    this.deliverArrived();
    const deadline = Date.now() + this.waitMs;
    while (this.waiters.size > 0) {
      Atomics.store(this.signal, 0, 0);
      for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port))
        this.deliver(got.message as PgReply);
      if (this.waiters.size === 0) return;
      const left = deadline - Date.now();
      if (left <= 0) {
        this.port.postMessage({ op: 'reset' } satisfies PgReset);
        this.failPosted(`PostgreSQL did not answer within ${Math.round(this.waitMs / 1000)} s`);
        return;
      }
      Atomics.wait(this.signal, 0, 0, left);
    }
  }

  private deliver(reply: PgReply): void {
    if ('late' in reply) {
      const late = this.lates.get(reply.id);
      this.lates.delete(reply.id);
      late?.(reply.committed);
      return;
    }
    const w = this.waiters.get(reply.id);
    if (!w) return; // a waited request's answer it gave up on, or a posted one's past its wait
    this.waiters.delete(reply.id);
    clearTimeout(w.timer);
    w.done(reply);
  }

  private handOn(reply: PgReply): void {
    this.arrived.push(reply);
    if (this.arrived.length === 1) queueMicrotask(() => this.deliverArrived());
  }

  private deliverArrived(): void {
    const arrived = this.arrived;
    this.arrived = [];
    for (const reply of arrived) this.deliver(reply);
  }

  /** Every posted request fails (its worker stopped, or the store closes). */
  private failPosted(reason: string): void {
    this.deliverArrived();
    for (const [id, w] of [...this.waiters]) {
      this.waiters.delete(id);
      clearTimeout(w.timer);
      w.done({ id, error: { message: reason, unavailable: true } });
    }
  }

  /** Posts a request without waiting for it (see pgWorker.ts: its failure fails the next waited request). */
  send(req: PgRequest & { later: true }): void {
    if (this.closed) throw new Error('the PostgreSQL store is closed');
    if (this.stopped) this.restart();
    this.requests++;
    this.later.push(this.envelope(req, 0));
    if (this.later.length >= LATER_BATCH) this.flushLater();
  }

  /** Writes posted `later` travel to the worker several to a message (fewer messages, same order). */
  private flushLater(): void {
    if (this.later.length === 0) return;
    const batch = this.later;
    this.later = [];
    this.port.postMessage(batch);
  }

  /**
   * A request and the writes posted `later` before it, in one message (each message wakes the worker thread: on a
   * busy machine a wake-up is a switch of threads, and a batch's COMMIT would otherwise cost two).
   */
  private postAfterLater(envelope: PgEnvelope): void {
    if (this.later.length === 0) {
      this.port.postMessage(envelope);
      return;
    }
    const batch = this.later;
    this.later = [];
    batch.push(envelope);
    this.port.postMessage(batch);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.settle();
      this.request({ op: 'close' });
    } catch {
      // closing anyway
    } finally {
      this.closed = true;
      await this.worker.terminate();
    }
  }
}
