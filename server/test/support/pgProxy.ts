// A TCP proxy in a process of its own between server processes and PostgreSQL, for fault tests (issue #30): `cut`
// closes every connection (as a failover or a network blip does), `down` closes them and refuses new ones
// (PostgreSQL stopped), `up` accepts again. Node built-ins only.
import { spawn, type ChildProcess } from 'node:child_process';

const PROXY = `
const net = require('node:net');
const [host, port] = [process.argv[1], Number(process.argv[2])];
let down = false;
const open = new Set();
const server = net.createServer((client) => {
  if (down) return client.destroy();
  const upstream = net.connect(port, host);
  const pair = [client, upstream];
  open.add(pair);
  const end = () => { open.delete(pair); client.destroy(); upstream.destroy(); };
  client.on('error', end); upstream.on('error', end); client.on('close', end); upstream.on('close', end);
  client.pipe(upstream); upstream.pipe(client);
});
const cut = () => { for (const [a, b] of [...open]) { a.destroy(); b.destroy(); } open.clear(); };
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  for (const cmd of d.split('\\n').filter(Boolean)) {
    if (cmd === 'cut') cut();
    if (cmd === 'down') { down = true; cut(); }
    if (cmd === 'up') down = false;
    console.log('done ' + cmd);
  }
});
`;

export interface PgProxy {
  /** The database URL given, through the proxy. */
  url: string;
  command(cmd: 'cut' | 'down' | 'up'): Promise<void>;
  close(): void;
}

/** Starts a proxy to the host and port of `databaseUrl`. */
export async function startPgProxy(databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl);
  const child: ChildProcess = spawn(process.execPath, ['-e', PROXY, target.hostname, target.port || '5432'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pending = new Map<string, () => void>();
  const port = await new Promise<string>((ok) => {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      for (const line of d.split('\n')) {
        const m = /^port (\d+)/.exec(line);
        if (m) ok(m[1]);
        const done = /^done (\w+)/.exec(line);
        if (done) {
          pending.get(done[1])?.();
          pending.delete(done[1]);
        }
      }
    });
  });
  const url = new URL(databaseUrl);
  url.port = port;
  return {
    url: url.toString(),
    command: (cmd) =>
      new Promise((ok) => {
        pending.set(cmd, ok);
        child.stdin!.write(`${cmd}\n`);
      }),
    close: () => void child.kill(),
  };
}
