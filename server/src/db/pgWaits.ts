// An opt-in count of the requests the PostgreSQL store makes (issue #30, session 28): RASTRO_PG_WAITS=<file> makes
// a running server write, every second, how many requests the main thread WAITED for and how many it posted
// without waiting, by statement and by where (inside an ingestion batch's transaction or outside), with the number
// of batches: the waits per batch. Off (nothing counted) unless the variable is set; for the benchmark.
import { writeFileSync } from 'node:fs';

export type PgWaitKind = 'waited' | 'posted' | 'later';

export class PgWaits {
  private readonly counts = new Map<string, number>();
  batches = 0;

  constructor(private readonly file: string) {
    const timer = setInterval(() => this.write(), 1000);
    timer.unref();
  }

  /** One request: its kind, whether inside a transaction, and the statement's name (its first words). */
  count(kind: PgWaitKind, inTransaction: boolean, label: string): void {
    const key = `${kind} ${inTransaction ? 'tx' : 'out'} ${label.replace(/\s+/g, ' ').slice(0, 70)}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  private write(): void {
    const rows = Object.fromEntries([...this.counts].sort((a, b) => b[1] - a[1]));
    writeFileSync(this.file, JSON.stringify({ batches: this.batches, counts: rows }, null, 1));
  }
}

/** The counter when RASTRO_PG_WAITS names a file, else null. */
export function pgWaitsFromEnv(): PgWaits | null {
  const file = process.env.RASTRO_PG_WAITS;
  return file ? new PgWaits(file) : null;
}
