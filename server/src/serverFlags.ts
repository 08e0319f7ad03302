// The server's flags (the `server` row's restrictions, switches and attributes) read ONCE per request or job run
// (issue #30, session 36). A request is parsed and normalised once, and the permission gate (authorize.ts), the
// checks (traccar/access.ts checkWrite, checkRestriction, restricted, serverSwitch, serverAttribute), the
// interlocks, the handler and the refusal's language (refusal.ts) all see the one value that request read.
//
// The read is lazy and memoised: a request that needs no flag reads none; the first check that needs them reads the
// row on the read pool, and every later one of the same request gets that answer. A flag changed by another process
// or straight in the store is honoured on the next request. The checks only take `ctx`, so the request's memo is
// found through an AsyncLocalStorage scope entered by the edge's hooks (edge.ts registerEdge: onRequest, and again at
// preValidation since a body's parsing runs outside it); refusal.ts finds it by the request too. Non-request callers
// (jobs, the socket, scheduled reports) run in `withServerFlagsRead` for one read per run; outside any scope every
// call reads (correct, not memoised).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { serverFlagsRowAsync } from './db/repos/server.ts';

export interface ServerFlags {
  readonly: number;
  deviceReadonly: number;
  limitCommands: number;
  disableReports: number;
  fixedEmail: number;
  registration: number;
  attributes: string;
}

/** A missing row (an empty store) reads as no flag set. */
const NO_FLAGS: ServerFlags = {
  readonly: 0,
  deviceReadonly: 0,
  limitCommands: 0,
  disableReports: 0,
  fixedEmail: 0,
  registration: 0,
  attributes: '{}',
};

/** One request's or job run's read: its answer once read, the read in flight meanwhile. */
interface FlagsRead {
  value?: ServerFlags;
  pending?: Promise<ServerFlags>;
  /** The request was answered: a timer or listener it started (and so its scope) reads afresh from then on. */
  ended?: boolean;
}

const scope = new AsyncLocalStorage<FlagsRead>();
const ofRequest = new WeakMap<object, FlagsRead>();

function readOnce(ctx: AppContext, memo: FlagsRead): Promise<ServerFlags> {
  if (memo.ended) return readFlags(ctx);
  if (memo.value) return Promise.resolve(memo.value);
  memo.pending ??= readFlags(ctx).then(
    (flags) => (memo.value = flags),
    (err: unknown) => {
      memo.pending = undefined; // a failed read (the store down) is not kept: the next check asks again
      throw err;
    },
  );
  return memo.pending;
}

async function readFlags(ctx: AppContext): Promise<ServerFlags> {
  return ((await serverFlagsRowAsync(ctx.store.sql)) as ServerFlags | undefined) ?? NO_FLAGS;
}

/** The server's flags of the request or job run in progress: read on its first call, the same answer after. */
export function serverFlagsOnce(ctx: AppContext): Promise<ServerFlags> {
  const memo = scope.getStore();
  return memo ? readOnce(ctx, memo) : readFlags(ctx);
}

function memoOf(req: FastifyRequest): FlagsRead {
  let memo = ofRequest.get(req);
  if (!memo) ofRequest.set(req, (memo = {}));
  return memo;
}

/** The flags of `req` (the gate's read, shared with the checks the request's handler makes). */
export function requestServerFlags(ctx: AppContext, req: FastifyRequest): Promise<ServerFlags> {
  return readOnce(ctx, memoOf(req));
}

/** The flags `req` has read so far (undefined when it read none); outside a request, the job run's. */
export function serverFlagsRead(req: Pick<FastifyRequest, 'headers'> | null): ServerFlags | undefined {
  return (req ? ofRequest.get(req)?.value : undefined) ?? scope.getStore()?.value;
}

/** Runs a job (no request) with one read of the flags for the whole run. */
export function withServerFlagsRead<T>(fn: () => Promise<T>): Promise<T> {
  return scope.run({}, fn);
}

/** Enters each request's scope (registerEdge calls it first, before the edge's own hooks). */
export function registerServerFlagsScope(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    scope.run(memoOf(req), done);
  });
  // a body is parsed outside the scope (the stream's events): entered again once it is
  app.addHook('preValidation', (req, _reply, done) => {
    scope.run(memoOf(req), done);
  });
  // work the request started that outlives it (a timer, a listener) keeps its scope: never its flags
  app.addHook('onResponse', (req, _reply, done) => {
    memoOf(req).ended = true;
    done();
  });
}
