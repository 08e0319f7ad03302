// The production path (issue #12): the server built ahead of time runs on plain Node (no TypeScript at run time),
// logs JSON lines under NODE_ENV=production, answers its health check, and loses no acknowledged position: not on
// a graceful SIGTERM (queued positions are flushed) and not on a SIGKILL. On SQLite and, in npm test's PostgreSQL
// leg, on PostgreSQL (no worker thread since session 38: main.js alone).
import Database from 'better-sqlite3';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, storeEnv, TEST_DATABASE_URL } from './helpers/store.ts';
import { startServerProcess } from './support/serverProcess.ts';

const serverDir = resolve(import.meta.dirname, '..');
const AUTH = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

interface Running {
  child: ChildProcess;
  base: string;
  output: string[];
  exited: Promise<number | null>;
}

async function start(dataDir: string): Promise<Running> {
  const s = await startServerProcess({
    build: 'dist',
    dataDir,
    readyTimeoutMs: 30_000,
    env: { NODE_ENV: 'production', LOG_LEVEL: 'info', ...(await storeEnv(dataDir)) },
  });
  return { child: s.child, base: s.url, output: s.output, exited: s.exited };
}

async function reportPositions(r: Running, uniqueId: string, n: number, from = 0): Promise<number> {
  let acknowledged = 0;
  const t0 = Math.floor(Date.now() / 1000) - 3600;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const k = from + i;
      const res = await fetch(
        `${r.base}/?id=${uniqueId}&lat=${-23.5 + k * 1e-4}&lon=-46.6&timestamp=${t0 + k}`,
        {
          method: 'POST',
        },
      );
      if (res.status === 200) acknowledged++;
    }),
  );
  return acknowledged;
}

const storedPositions = async (dataDir: string) => {
  if (TEST_DATABASE_URL) return countRows(dataDir, 'positions');
  const db = new Database(join(dataDir, 'rastro.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM positions').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('production build', () => {
  const dirs: string[] = [];
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(serverDir, 'scripts', 'build.mjs')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr || r.stdout);
  }, 120_000);
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'rastro-prod-'));
    dirs.push(d);
    return d;
  };

  it('runs on plain Node, logs JSON lines, and a SIGTERM flushes every acknowledged position', async () => {
    expect(existsSync(join(serverDir, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(serverDir, 'dist', 'assets', 'sounds', 'audio1.wav'))).toBe(true);
    const dir = dataDir();
    const r = await start(dir);
    const server = (await (await fetch(`${r.base}/api/server`)).json()) as { version: string };
    expect(server.version).toMatch(/^6\./);
    const sound = await fetch(`${r.base}/rastro/assets/custom/sounds/audio1.wav`);
    expect(sound.status).toBe(200); // bundled assets are found beside the built file
    const created = await fetch(`${r.base}/api/devices`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Prod', uniqueId: 'prod-1' }),
    });
    expect(created.status).toBe(200);
    expect(await reportPositions(r, 'prod-1', 60)).toBe(60);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(await storedPositions(dir)).toBe(60);
    const log = r.output.join('');
    const jsonLines = log.split('\n').filter((l) => l.startsWith('{'));
    expect(jsonLines.length).toBeGreaterThan(0);
    for (const l of jsonLines) expect(() => JSON.parse(l)).not.toThrow();
    expect(log).toContain('SIGTERM: shutting down');
  }, 90_000);

  it('a SIGKILL loses no acknowledged position: all are there after a restart', async () => {
    const dir = dataDir();
    const first = await start(dir);
    await fetch(`${first.base}/api/devices`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Crash', uniqueId: 'crash-1' }),
    });
    const acknowledged = await reportPositions(first, 'crash-1', 80);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await start(dir);
    try {
      const res = await fetch(
        `${second.base}/api/positions?deviceId=1&from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
        { headers: { authorization: AUTH } },
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(acknowledged);
      expect(acknowledged).toBe(80);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 90_000);
});
