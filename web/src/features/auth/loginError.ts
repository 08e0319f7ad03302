// Turns a failed sign-in call into a code of the SPEC §8 catalogue; the rule is parseLoginError in @rastro/domain.
import { parseLoginError, type LoginFailure as ParsedFailure } from '@rastro/domain';
import { HttpError } from '../../api/http.ts';

/** The failure a sign-in screen shows: the domain's reading of the server's answer, or a code the screen sets itself
 * (a form check's, REGISTRATION_DISABLED). */
export type LoginFailure = Omit<ParsedFailure, 'code' | 'key'> & { code: string };

function bodyOf(text: string): unknown {
  try {
    return text.trim().startsWith('{') ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

export function loginFailure(err: unknown): LoginFailure {
  if (err instanceof HttpError)
    return parseLoginError(err.status === 0 ? null : { status: err.status, body: bodyOf(err.text) });
  return parseLoginError(undefined, 'process');
}
