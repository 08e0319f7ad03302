// Bad input against a domain rule (SPEC §5 form rules checked by the server too): HTTP 400 with an
// `IllegalArgumentException: <text>` body in the caller's language (same language choice as refusal.ts).
import type { FastifyRequest } from 'fastify';
import { formatMessage, isMessageKey } from '@rastro/domain';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { requestLanguage } from './refusal.ts';

type AttributesSource = Parameters<typeof requestLanguage>[2];

/**
 * 400 with the message `key` in the caller's language: a domain message key, or a web-namespaced key
 * ('notifications:validation.x') whose part after the colon is one; any other text is sent as is.
 */
export function invalidInput(
  ctx: AppContext,
  req: Pick<FastifyRequest, 'headers'> | null,
  user: AttributesSource,
  key: string,
  values: Record<string, string | number> = {},
): ApiError {
  const bare = key.slice(key.indexOf(':') + 1);
  const text = isMessageKey(bare) ? formatMessage(bare, requestLanguage(ctx, req, user), values) : key;
  return new ApiError(400, text, 'IllegalArgumentException');
}
