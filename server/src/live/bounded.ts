// Independent reads run side by side on the read pool (db/pool.ts), at most a few at a time: a report over many
// devices asks each device's rows concurrently without taking every pooled connection for itself.

/** How many of one request's reads run at once (the read pool has 4 connections by default). */
const READS_AT_ONCE = 4;

/** fn over the items, at most `limit` running at once; the answers in the items' order (the first failure fails it). */
export async function mapBounded<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  limit = READS_AT_ONCE,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (err) {
        failed = true; // the others start nothing more: the request has failed
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
