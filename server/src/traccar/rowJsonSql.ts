// A row's API JSON built by SQLite itself (json_object), for long list answers: 10,000 devices read as JS objects,
// mapped by rowToJson and stringified cost ~190 ms of the event loop; as JSON text made by the query, ~60 ms
// (bench/results/map.md, session 16). The text is the same JSON rowToJson gives for every value it can hold as
// this store writes it; where only JS can say (a real number, a date not in toISOString form), the expression is
// NULL and the caller maps that row with rowToJson instead (listAnswer.ts). SQLite only: PostgreSQL keeps the JS path.
import type { Columns } from './model.ts';

/** `YYYY-MM-DDTHH:MM:SS.sssZ`, the form `Date#toISOString()` writes and the store keeps. */
const ISO_FORMAT = "'%Y-%m-%dT%H:%M:%fZ'";

const quoteName = (name: string) => {
  if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`bad column ${name}`);
  return name;
};

/**
 * The SQLite expression of a row's JSON text as `rowToJson(columns, row, excludeAttributes)` writes it, with
 * `overrides` (column → SQL of its JSON value) where the entity's own toJson changes a field; NULL for a row only
 * JS can map.
 */
export function rowJsonSql(
  columns: Columns,
  excludeAttributes: boolean,
  overrides: Record<string, string> = {},
): string {
  const fields: string[] = ["'id'", 'id'];
  const jsOnly: string[] = [];
  for (const [name, kind] of Object.entries(columns)) {
    const c = quoteName(name);
    fields.push(`'${c}'`);
    if (overrides[name]) {
      fields.push(overrides[name]);
      continue;
    }
    switch (kind) {
      case 'bool':
        fields.push(`json(CASE WHEN ${c} = 1 THEN 'true' ELSE 'false' END)`);
        break;
      case 'int':
      case 'num':
        // integers print alike in SQLite and JS; a real's digits may not
        fields.push(`coalesce(${c}, 0)`);
        jsOnly.push(`typeof(${c}) NOT IN ('integer', 'null')`);
        break;
      case 'str':
        fields.push(`CAST(coalesce(${c}, '') AS TEXT)`);
        jsOnly.push(`typeof(${c}) IN ('real', 'blob')`);
        break;
      case 'strNull':
        fields.push(`CAST(${c} AS TEXT)`);
        jsOnly.push(`typeof(${c}) IN ('real', 'blob')`);
        break;
      case 'date':
        fields.push(`CASE WHEN ${c} IS NULL OR ${c} = '' THEN NULL ELSE substr(${c}, 1, 23) || '+00:00' END`);
        // a well-formed, real moment: SQLite writes it back unchanged (2026-02-30 would come back as March 2nd)
        jsOnly.push(`(${c} IS NOT NULL AND ${c} <> '' AND strftime(${ISO_FORMAT}, ${c}) IS NOT ${c})`);
        break;
      case 'attrs':
        fields.push(
          excludeAttributes
            ? "json('{}')"
            : // CASE keeps json_type from ever reading malformed text (it would raise an error)
              `CASE WHEN typeof(${c}) <> 'text' OR NOT json_valid(${c}) THEN json('{}') ` +
                `WHEN json_type(${c}) = 'object' THEN json(${c}) ELSE json('{}') END`,
        );
        break;
    }
  }
  const object = `json_object(${fields.join(', ')})`;
  return jsOnly.length ? `CASE WHEN ${jsOnly.join(' OR ')} THEN NULL ELSE ${object} END` : object;
}
