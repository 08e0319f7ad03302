// The monitoring center's queue across processes (issue #32): two server processes on one PostgreSQL database see
// the same alarms. An SOS reported to A's OsmAnd port is listed by B and reaches an operator's socket on B (message
// `alarms`); acknowledged on B, it is acknowledged on A; a repeat reported to B folds into the same alarm.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Alarm } from '@rastro/domain';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { startServerProcess } from '../support/serverProcess.ts';

const AUTH = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };

interface Proc {
  child: ChildProcess;
  base: string;
  osmand: string;
  exited: Promise<number | null>;
}

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const s = await startServerProcess({ osmand: true, readyTimeoutMs: 120_000, env });
  return { child: s.child, base: s.url, osmand: s.osmandUrl!, exited: s.exited };
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  ms: number,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alarms = async (p: Proc): Promise<Alarm[]> =>
  (await (await fetch(`${p.base}/rastro/alarms?all=true`, { headers: AUTH })).json()) as Alarm[];

describe('the alarm queue on two processes', () => {
  const key = `alarms-${randomUUID()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'rastro-alarms-cluster-'));
  let a: Proc;
  let b: Proc;
  beforeAll(async () => {
    if (!TEST_DATABASE_URL)
      throw new Error('these tests need PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
    const env = { ...(await storeEnv(key)), DATA_DIR: dataDir, LOG_LEVEL: 'warn' } as Record<string, string>;
    a = await startProcess(env);
    b = await startProcess(env);
  }, 240_000);
  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited]);
    rmSync(dataDir, { recursive: true, force: true });
    await dropStore(key);
  });

  it('an SOS sent to A is listed by B and pushed to B’s socket; acknowledged on B, seen so on A; a repeat on B folds', async () => {
    const created = await fetch(`${a.base}/api/devices`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Panic', uniqueId: 'alarm-cluster-1' }),
    });
    expect(created.status).toBe(200);
    const device = (await created.json()) as { id: number };

    const login = await fetch(`${b.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.base },
      body: 'email=admin&password=admin',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const ws = new WebSocket(`${b.base.replace('http', 'ws')}/api/socket`, {
      headers: { cookie, origin: b.base },
    });
    const pushed: Alarm[] = [];
    ws.on('message', (m: Buffer) =>
      pushed.push(...((JSON.parse(m.toString()) as { alarms?: Alarm[] }).alarms ?? [])),
    );
    await new Promise<void>((ok, fail) => {
      ws.once('open', () => ok());
      ws.once('error', fail);
    });
    await new Promise((r) => setTimeout(r, 300)); // the socket's first snapshot

    const report = (p: Proc, t: number, alarm?: string) =>
      fetch(
        `${p.osmand}/?id=alarm-cluster-1&lat=-23.5&lon=-46.6&timestamp=${t}${alarm ? `&alarm=${alarm}` : ''}`,
        {
          method: 'POST',
        },
      );
    const t0 = Math.floor(Date.now() / 1000);
    expect((await report(a, t0)).status).toBe(200);
    expect((await report(a, t0 + 1, 'sos')).status).toBe(200);

    const onB = await until(
      'the SOS listed by B',
      async () => (await alarms(b)).find((x) => x.type === 'sos'),
      3000,
    );
    expect(onB).toMatchObject({ deviceId: device.id, state: 'open', count: 1 });
    await until('the SOS on B’s socket', () => pushed.find((x) => x.id === onB.id), 3000);

    const ack = await fetch(`${b.base}/rastro/alarms/${onB.id}/ack`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'on it' }),
    });
    expect(ack.status).toBe(200);
    const onA = (await alarms(a)).find((x) => x.id === onB.id)!;
    expect(onA).toMatchObject({ state: 'acknowledged', notes: [expect.objectContaining({ text: 'on it' })] });

    // a repeat reported to B folds into the alarm A raised
    expect((await report(b, t0 + 2)).status).toBe(200);
    expect((await report(b, t0 + 3, 'sos')).status).toBe(200);
    const folded = await until(
      'the repeat folded',
      async () => (await alarms(a)).find((x) => x.id === onB.id && x.count === 2),
      3000,
    );
    expect(folded.state).toBe('acknowledged');
    expect((await alarms(a)).filter((x) => x.type === 'sos')).toHaveLength(1);
    ws.close();
  });
});
