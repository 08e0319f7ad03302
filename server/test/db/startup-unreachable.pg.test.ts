// A server whose DATABASE_URL cannot be used stops with one line naming DATABASE_URL (password masked) and the
// reason — authentication, unreachable, timeout — and exit code 1, not a stack trace (issue #30).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../helpers/store.ts';
import { runServerToExit } from '../support/serverProcess.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'rastro-startup-'));
let silent: Server;
const held: Socket[] = [];
let silentPort = 0;

beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  // accepts connections and never answers: a host that does not respond
  silent = createServer((s) => held.push(s));
  await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', () => ok()));
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(() => {
  for (const s of held) s.destroy();
  silent?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(databaseUrl: string): Promise<{ code: number | null; out: string }> {
  return runServerToExit({ dataDir, env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' } });
}

function closedPort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

describe('startup without a usable database', () => {
  it('names DATABASE_URL with the password masked and the reason, exits 1, no stack trace', async () => {
    const pg = new URL(TEST_DATABASE_URL!);
    const wrongUser = new URL(TEST_DATABASE_URL!);
    wrongUser.username = 'nobody_here';
    wrongUser.password = 'secret-pw';
    const cases: Array<[string, RegExp]> = [
      [wrongUser.toString(), /authentication failed/],
      [
        `postgres://rastro:secret-pw@127.0.0.1:${await closedPort()}/postgres`,
        /unreachable \(ECONNREFUSED\)/,
      ],
      [`postgres://rastro:secret-pw@127.0.0.1:${silentPort}${pg.pathname}`, /timeout: no answer within 10 s/],
    ];
    const results = await Promise.all(cases.map(([u]) => start(u)));
    results.forEach(({ code, out }, i) => {
      const lines = out.trim().split('\n');
      expect(code, out).toBe(1);
      expect(lines, out).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^Cannot use the database DATABASE_URL=postgres:\/\/\w+:\*\*\*@127\.0\.0\.1:\d+\//,
      );
      expect(lines[0]).toMatch(cases[i][1]);
      expect(out).not.toContain('secret-pw');
    });
  });
});
