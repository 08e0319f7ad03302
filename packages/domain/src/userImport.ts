// The user Excel import (SPEC §5 users screen): header aliases in the three languages, the user-form rules per
// row, duplicates in the file or on the server, and the POST /api/users body of a valid row.
import type { ImportRow } from './importExcel.ts';
import type { User } from './types.ts';
import { loginProblem, nameProblem, passwordProblems, phoneProblem } from './userForm.ts';

export const USER_IMPORT_COLUMNS = ['name', 'email', 'password', 'phone'] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number];

/** Header spellings accepted per column (compared lower-cased, without accents, spaces or dashes). */
const IMPORT_HEADER_ALIASES: Record<UserImportColumn, string[]> = {
  name: ['name', 'nome', 'nombre'],
  email: ['email', 'mail', 'correo', 'correoelectronico', 'login', 'usuario', 'user', 'username'],
  password: ['password', 'senha', 'contrasena', 'clave'],
  phone: ['phone', 'telefone', 'telefono', 'celular', 'fone'],
};

const normHeader = (h: unknown) =>
  String(h ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_\-.]/g, '');

/** Column index of each known column in a header row (-1 when absent). */
export function mapImportHeaders(headers: readonly unknown[]): Record<UserImportColumn, number> {
  const norm = headers.map(normHeader);
  const out = {} as Record<UserImportColumn, number>;
  for (const c of USER_IMPORT_COLUMNS) out[c] = norm.findIndex((h) => IMPORT_HEADER_ALIASES[c].includes(h));
  return out;
}

export type UserImportData = Record<UserImportColumn, string>;

const cellText = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    const o = v as { text?: unknown; result?: unknown; hyperlink?: unknown };
    if (o.text !== undefined) return cellText(o.text);
    if (o.result !== undefined) return cellText(o.result);
    return '';
  }
  return String(v).trim();
};

/**
 * Rows of a sheet (first row = headers) ⇒ import rows with their errors: the user-form rules for name, e-mail,
 * password (required, ≥ 4, no confirmation in a sheet) and phone; an e-mail repeated in the file or already
 * used on the server ('users:errors.duplicateEmail'); missing name/e-mail/password columns make every row
 * fail ('users:errors.missingColumn'). Blank rows are skipped; `index` is the 1-based sheet row.
 */
export function userImportRows(
  sheet: readonly (readonly unknown[])[],
  existingEmails: Iterable<string> = [],
): ImportRow<UserImportData>[] {
  if (sheet.length === 0) return [];
  const cols = mapImportHeaders(sheet[0]);
  const missing = (['name', 'email', 'password'] as const).filter((c) => cols[c] < 0);
  const seen = new Set([...existingEmails].map((e) => e.trim().toLowerCase()));
  const out: ImportRow<UserImportData>[] = [];
  sheet.slice(1).forEach((cells, i) => {
    const data = Object.fromEntries(
      USER_IMPORT_COLUMNS.map((c) => [c, cols[c] >= 0 ? cellText(cells[cols[c]]) : '']),
    ) as UserImportData;
    if (USER_IMPORT_COLUMNS.every((c) => data[c] === '')) return;
    const errors: string[] = [];
    if (missing.length) errors.push('users:errors.missingColumn');
    else {
      for (const e of [
        nameProblem(data.name),
        loginProblem(data.email),
        passwordProblems(data.password, data.password, true).password,
        phoneProblem(data.phone),
      ])
        if (e) errors.push(e);
      const key = data.email.toLowerCase();
      if (key && seen.has(key)) errors.push('users:errors.duplicateEmail');
      if (key) seen.add(key);
    }
    out.push({ index: i + 2, data, errors });
  });
  return out;
}

/** The POST /api/users body of a valid import row (readonly flags off, no limits). */
export function importRowToUser(data: UserImportData): Partial<User> & { name: string; email: string } {
  return {
    id: 0,
    name: data.name.trim(),
    email: data.email.trim(),
    phone: data.phone.trim() || null,
    password: data.password,
    attributes: {},
  };
}
