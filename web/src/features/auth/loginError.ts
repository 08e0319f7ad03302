// Turns a failed sign-in call into a code of the SPEC §8 catalogue; the rule is parseLoginError in @rastro/domain.
import { parseLoginError } from '@rastro/domain';
import { HttpError } from '../../api/http.ts';

export interface LoginFailure {
  code: string;
  /** A code the server sent that is not in the catalogue (shown when a translation exists for it). */
  raw?: string;
  trustAvailable?: boolean;
  invoices?: unknown;
}

function bodyOf(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

export function loginFailure(err: unknown): LoginFailure {
  if (err instanceof HttpError) {
    const f = parseLoginError(err.status === 0 ? null : { status: err.status, body: bodyOf(err.text) });
    return { code: f.code, raw: f.raw, trustAvailable: f.trustAvailable, invoices: f.invoices };
  }
  return { code: parseLoginError(undefined, 'process').code };
}
