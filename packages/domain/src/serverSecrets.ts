// Which server attributes hold secrets, and what each kind of caller may read of GET /api/server.
// - Secret keys (the SMS gateway's key, URL and referer, and any attribute named like a password, secret, token or
//   API key): administrators only.
// - Map provider keys (Google, Bing): browser keys the map itself sends to the tile provider, so every signed-in
//   user's map needs them; anonymous callers (the login page) never get them.
import { nsKey, DEFAULT_NS } from './attributes.ts';
import type { Attributes } from './types.ts';

export type ServerViewer = 'admin' | 'user' | 'anonymous';

/** Attribute names (without or with the namespace) that only administrators read. */
export function secretServerAttributes(ns: string = DEFAULT_NS): string[] {
  return ['smsApiKey', 'smsApiUrl', 'smsApiRefer'].map((k) => nsKey(ns, k));
}

/** Map keys: signed-in users only. */
export function mapKeyAttributes(ns: string = DEFAULT_NS): string[] {
  return [nsKey(ns, 'googleKey'), 'googleKey', nsKey(ns, 'mapsKey')];
}

/** Any attribute whose name ends like a credential (apiKey, secret, password, token…), whatever its namespace. */
const CREDENTIAL_NAME = /(api[_-]?key|secret|password|passwd|token|credentials?|private[_-]?key)$/i;

export function isSecretServerAttribute(name: string, ns: string = DEFAULT_NS): boolean {
  return secretServerAttributes(ns).includes(name) || CREDENTIAL_NAME.test(name);
}

/** The server attributes a caller may read. */
export function visibleServerAttributes(
  attributes: Attributes,
  viewer: ServerViewer,
  ns: string = DEFAULT_NS,
): Attributes {
  if (viewer === 'admin') return attributes;
  const maps = new Set(mapKeyAttributes(ns));
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (isSecretServerAttribute(k, ns)) continue;
    if (viewer === 'anonymous' && maps.has(k)) continue;
    out[k] = v;
  }
  return out;
}
