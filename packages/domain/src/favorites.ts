// SPEC §3/§6 favourite device attributes: comma lists in the server's and the user's `{ns}.deviceAttributes`.
// Either list can pin an attribute; the user's order comes first, then the server's, without duplicates.
import { attrString, DEFAULT_NS, nsKey } from './attributes.ts';
import type { Attributes } from './types.ts';

export function parseAttributeList(value: unknown): string[] {
  return (attrString(value) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function favoriteAttributes(
  server: { attributes?: Attributes | null } | null | undefined,
  user: { attributes?: Attributes | null } | null | undefined,
  ns: string = DEFAULT_NS,
): { key: string; source: 'user' | 'server' }[] {
  const key = nsKey(ns, 'deviceAttributes');
  const seen = new Set<string>();
  const out: { key: string; source: 'user' | 'server' }[] = [];
  for (const [source, list] of [
    ['user', parseAttributeList(user?.attributes?.[key])],
    ['server', parseAttributeList(server?.attributes?.[key])],
  ] as const) {
    for (const k of list) {
      if (!seen.has(k)) {
        seen.add(k);
        out.push({ key: k, source });
      }
    }
  }
  return out;
}

/** Toggles a pinned attribute in a comma list (returns the new comma string). */
export function togglePinned(value: unknown, attribute: string): string {
  const list = parseAttributeList(value);
  const i = list.indexOf(attribute);
  if (i >= 0) list.splice(i, 1);
  else list.push(attribute);
  return list.join(',');
}
