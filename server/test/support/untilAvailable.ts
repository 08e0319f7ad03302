// Retries a call while the store answers DatabaseUnavailable (the pool connecting again after a fault), 10 s at most.
import { DatabaseUnavailable } from '../../src/db/sql.ts';

export async function untilAvailable<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof DatabaseUnavailable) || i >= 100) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
