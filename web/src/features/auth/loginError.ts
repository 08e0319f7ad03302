// Turns a failed sign-in call into a code of the SPEC §8 catalogue (rule in @rastro/domain).
import { HttpError } from '../../api/http.ts';

export interface LoginFailure {
  code: string;
  trustAvailable?: boolean;
  invoices?: unknown;
}

export function loginFailure(err: unknown): LoginFailure {
  if (err instanceof HttpError) {
    if (err.status === 0) return { code: 'CONNECTION_ERROR' };
    if (err.status === 500) return { code: 'ACCOUNT_IS_BLOCKED' };
    if (err.status === 401) return { code: 'HTTP_401_UNAUTHORIZED' };
    const first = err.text.split('\n')[0].replace(/^([\w.]*Exception:\s*)+/, '');
    const code = first
      .split(' - ')[0]
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_|_$/g, '');
    return { code: code || 'UNKNOWN_ERROR' };
  }
  return { code: 'LOGIN_PROCESS_ERROR' };
}
