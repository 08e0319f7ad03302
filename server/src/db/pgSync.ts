// A PostgreSQL connection the main thread calls synchronously, as it calls better-sqlite3: each request is posted
// to a worker thread (db/pgWorker.ts) that owns the connection, and the main thread waits on a shared flag until
// the answer is there (Atomics.wait), then reads it with receiveMessageOnPort. The server's modules keep one code
// path for both stores, and a transaction is atomic for the same reason as on SQLite: nothing else runs on the
// main thread meanwhile. Why this rather than an asynchronous store: docs/architecture.md ("PostgreSQL").
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

export type PgRequest =
  | { op: 'connect' }
  | { op: 'query'; name?: string; text: string; values: unknown[]; later?: boolean }
  | { op: 'exec'; text: string; later?: boolean }
  | { op: 'close' };

export interface PgFailure {
  message: string;
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
}

export type PgReply = { rows: Array<Record<string, unknown>>; rowCount: number } | { error: PgFailure };

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

const TIMEOUT_MS = 60_000;
/** How many writes posted `later` wait to travel together (a waited request sends them at once). */
const LATER_BATCH = 32;

export class PgSync {
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private closed = false;
  private later: PgRequest[] = [];
  /** Round trips made (diagnostics and the benchmark). */
  requests = 0;

  constructor(url: string) {
    const { port1, port2 } = new MessageChannel();
    // From the TypeScript sources through a loader (db/pgWorkerBoot.mjs), or the production build's pgWorker.js.
    const fromSource = import.meta.url.endsWith('.ts');
    this.worker = new Worker(new URL(fromSource ? './pgWorkerBoot.mjs' : './pgWorker.js', import.meta.url), {
      workerData: { url, flag: this.signal.buffer, port: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    this.port = port1;
    this.port.unref();
    this.request({ op: 'connect' });
  }

  request(req: PgRequest, sql?: string): { rows: Array<Record<string, unknown>>; rowCount: number } {
    if (this.closed) throw new Error('the PostgreSQL store is closed');
    this.requests++;
    this.flushLater();
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(req);
    for (;;) {
      const waited = Atomics.wait(this.signal, 0, 0, TIMEOUT_MS);
      const got = receiveMessageOnPort(this.port);
      if (got) {
        const reply = got.message as PgReply;
        if ('error' in reply) throw new PgError(reply.error, sql);
        return reply;
      }
      if (waited === 'timed-out') throw new Error(`PostgreSQL did not answer within ${TIMEOUT_MS / 1000} s`);
    }
  }

  /** Posts a request without waiting for it (see pgWorker.ts: its failure fails the next waited request). */
  send(req: PgRequest & { later: true }): void {
    if (this.closed) throw new Error('the PostgreSQL store is closed');
    this.requests++;
    this.later.push(req);
    if (this.later.length >= LATER_BATCH) this.flushLater();
  }

  /** Writes posted `later` travel to the worker several to a message (fewer messages, same order). */
  private flushLater(): void {
    if (this.later.length === 0) return;
    const batch = this.later;
    this.later = [];
    this.port.postMessage(batch);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.request({ op: 'close' });
    } finally {
      this.closed = true;
      await this.worker.terminate();
    }
  }
}
