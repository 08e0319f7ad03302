// CONTRACT §4 id lists in query strings: a repeated parameter (`deviceId=1&deviceId=2`), given once, repeated or not
// at all. Each value is a whole number from 1 of up to 15 digits (ids are 64-bit; 15 digits stay exact in a
// double; 0 is "no reference", CONTRACT §1, never an id), blanks around it ignored; anything else — a comma list,
// a sign, a decimal point, an empty value — is not an id. One rule for every route that takes such a list and for
// the web's report links.

/** At most this many values in one list (a longer one is refused whole). */
export const ID_LIST_MAX = 10_000;

const ID = /^\d{1,15}$/;

/** One id value, or null when it is not one. */
export function parseIdValue(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && ID.test(value.trim())
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export interface ParsedIdList {
  /** The ids, in the order given (repeats kept). */
  ids: number[];
  /** The values that are not ids, as given (the caller refuses the request, or drops them). */
  invalid: string[];
  /** More than ID_LIST_MAX values. */
  tooMany: boolean;
}

/** A query parameter's value(s) (undefined, one string, or the array a repeated parameter gives) as ids. */
export function parseIdList(value: unknown): ParsedIdList {
  const values = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const ids: number[] = [];
  const invalid: string[] = [];
  for (const v of values) {
    const id = parseIdValue(v);
    if (id === null) invalid.push(String(v));
    else ids.push(id);
  }
  return { ids, invalid, tooMany: values.length > ID_LIST_MAX };
}
