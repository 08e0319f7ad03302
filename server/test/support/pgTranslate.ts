// SQLite's dialect into PostgreSQL's, for the tests' own statements (issue #30, session 27): about 190 statements in
// 60 test files are written in SQLite's dialect and run on both stores; sqliteText.setup.ts hands this to
// PostgresDatabase.prepare (server/src/db/postgres.ts) in the test runs. The server itself translates nothing: every
// statement of server/src is compiled by kysely or written natively per dialect, and on PostgreSQL prepare() refuses
// SQLite text outside the tests. (Until session 27 this file was server/src/db/pgTranslate.ts.)
// The statements keep to a small common subset; this covers what differs in it and refuses the rest loudly:
// - parameters `?` and `@name` become `$1…`; `IN (SELECT value FROM json_each(?))` (a JSON array parameter)
//   becomes `= ANY($1)` with the array itself sent;
// - camelCase identifiers are quoted, so PostgreSQL keeps their case in tables and in result rows;
// - `INSERT OR IGNORE` becomes `ON CONFLICT DO NOTHING`; an INSERT into a table with an `id` returns it
//   (better-sqlite3's lastInsertRowid);
// - `LIKE` becomes `ILIKE` (SQLite's LIKE ignores ASCII case), `IFNULL` COALESCE, the scalar `MAX(a, b)` and
//   `MIN(a, b)` GREATEST and LEAST, `x COLLATE NOCASE` lower(x), `CAST(x AS INTEGER)` a BIGINT (as the columns);
// - in table definitions (migrations): INTEGER → BIGINT, `INTEGER PRIMARY KEY AUTOINCREMENT` → BIGSERIAL,
//   REAL → DOUBLE PRECISION, TEXT → TEXT COLLATE "C" (byte order, as SQLite compares and sorts text: ISO times
//   sort as strings), BLOB → BYTEA, no `WITHOUT ROWID`.
import type { ParamRef, Translated } from '../../src/db/postgres.ts';

const STRING = '\uE000';
const PARAM = '\uE001';

export function translateSql(sql: string, tablesWithId: ReadonlySet<string>, ddl = false): Translated {
  const strings: string[] = [];
  const rawParams: Array<{ key: number | string; jsonArray: boolean }> = [];
  let masked = '';
  let positional = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      strings.push(sql.slice(i, j + 1));
      masked += `${STRING}${strings.length - 1}${STRING}`;
      i = j;
    } else if (c === '?') {
      rawParams.push({ key: positional++, jsonArray: false });
      masked += `${PARAM}${rawParams.length - 1}${PARAM}`;
    } else if ((c === '@' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1));
      const name = m ? m[0] : '';
      rawParams.push({ key: name, jsonArray: false });
      masked += `${PARAM}${rawParams.length - 1}${PARAM}`;
      i += name.length;
    } else {
      masked += c;
    }
  }

  let ignore = false;
  masked = masked.replace(/\bINSERT\s+OR\s+IGNORE\s+INTO\b/i, () => {
    ignore = true;
    return 'INSERT INTO';
  });
  if (
    /\bINSERT\s+OR\s+REPLACE\b|\bjson_extract\s*\(|\bjson_each\s*\(/i.test(masked.replace(jsonEachIn, ''))
  ) {
    throw new Error(`SQL not portable to PostgreSQL (write it in the common subset): ${sql}`);
  }
  masked = masked.replace(jsonEachIn, (_m, p: string) => {
    rawParams[Number(p)].jsonArray = true;
    return `= ANY(${PARAM}${p}${PARAM})`;
  });
  masked = masked
    // SQLite's LIKE has no escape character unless ESCAPE names one; PostgreSQL's has the backslash (issue #30)
    .replace(
      /\bLIKE\s+(\uE001\d+\uE001|\uE000\d+\uE000|[\w.]+)(?!\s+ESCAPE\b)/gi,
      (_m, operand: string) => `LIKE ${operand} ESCAPE ''`,
    )
    .replace(/\bLIKE\b/gi, 'ILIKE')
    .replace(/\bIFNULL\s*\(/gi, 'COALESCE(')
    .replace(/\b([A-Za-z_][\w.]*)\s+COLLATE\s+NOCASE\b/gi, 'lower($1)')
    .replace(/\bAS\s+INTEGER\s*\)/gi, 'AS BIGINT)')
    .replace(/\bWITHOUT\s+ROWID\b/gi, '');
  masked = scalarMinMax(masked);
  // SQLite: a negative LIMIT is no limit; PostgreSQL refuses it (LIMIT ALL, or NULL for a parameter)
  masked = masked
    .replace(/\bLIMIT\s+-\s*\d+\b/gi, 'LIMIT ALL')
    .replace(
      /\bLIMIT\s+(\uE001\d+\uE001)/gi,
      'LIMIT CAST(NULLIF(GREATEST(CAST($1 AS BIGINT), -1), -1) AS BIGINT)',
    );
  if (ddl) {
    masked = masked
      .replace(/\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b/gi, 'BIGSERIAL PRIMARY KEY')
      .replace(/\bINTEGER\b/g, 'BIGINT')
      .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
      .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"')
      .replace(/\bBLOB\b/g, 'BYTEA');
  }
  // camelCase identifiers keep their case only when quoted
  masked = masked.replace(/(?<![\w$\uE000\uE001])[A-Za-z_][A-Za-z0-9_]*/g, (w) =>
    /[a-z]/.test(w) && /[A-Z]/.test(w) ? `"${w}"` : w,
  );

  // number the parameters: each `?` its own, a name the same number every time it appears
  const params: ParamRef[] = [];
  const byName = new Map<string, number>();
  masked = masked.replace(/\uE001(\d+)\uE001/g, (_m, p: string) => {
    const ref = rawParams[Number(p)];
    if (typeof ref.key === 'string') {
      const seen = byName.get(ref.key);
      if (seen !== undefined) return `$${seen}`;
      params.push(ref);
      byName.set(ref.key, params.length);
      return `$${params.length}`;
    }
    params.push(ref);
    return `$${params.length}`;
  });

  let text = masked.replace(/\uE000(\d+)\uE000/g, (_m, s: string) => strings[Number(s)]).trim();
  text = text.replace(/;\s*$/, '');
  let returnsId = false;
  const insert = /^\s*INSERT\s+INTO\s+(\w+)/i.exec(text);
  if (insert) {
    const returning = /\bRETURNING\b/i.test(masked);
    const conflict = ignore ? ' ON CONFLICT DO NOTHING' : '';
    if (!returning && tablesWithId.has(insert[1])) {
      text += `${conflict} RETURNING id`;
      returnsId = true;
    } else if (ignore)
      text = returning ? text.replace(/\bRETURNING\b/i, 'ON CONFLICT DO NOTHING RETURNING') : text + conflict;
  }
  return { text, params, returnsId };
}

const jsonEachIn = /\bIN\s*\(\s*SELECT\s+value\s+FROM\s+json_each\s*\(\s*\uE001(\d+)\uE001\s*\)\s*\)/gi;

/** SQLite's scalar MAX(a, b, …) / MIN(a, b, …) (two or more arguments) are PostgreSQL's GREATEST / LEAST. */
function scalarMinMax(sql: string): string {
  const re = /\b(MAX|MIN)\s*\(/gi;
  let out = sql;
  let m: RegExpExecArray | null;
  while ((m = re.exec(out))) {
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let commas = 0;
    let close = -1;
    for (let i = open; i < out.length; i++) {
      const c = out[i];
      if (c === '(') depth++;
      else if (c === ')') {
        depth--;
        if (depth === 0) {
          close = i;
          break;
        }
      } else if (c === ',' && depth === 1) commas++;
    }
    if (close > 0 && commas > 0) {
      // SQLite's scalar MAX/MIN is NULL when an argument is; GREATEST/LEAST skip NULLs (issue #30)
      const name = m[1].toUpperCase() === 'MAX' ? 'GREATEST' : 'LEAST';
      const args = splitArgs(out.slice(open + 1, close));
      const anyNull = args.map((a) => `(${a.trim()}) IS NULL`).join(' OR ');
      const replaced = `(CASE WHEN ${anyNull} THEN NULL ELSE ${name}(${args.join(',')}) END)`;
      out = out.slice(0, m.index) + replaced + out.slice(close + 1);
      re.lastIndex = m.index + '(CASE WHEN '.length; // nested calls, in both copies of the arguments
    }
  }
  return out;
}

/** The arguments of a call, split at its top-level commas. */
function splitArgs(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  out.push(inner.slice(from));
  return out;
}
