// SPEC §4/§5 Excel import: file checks, steps, preview, limit and the completion outcome.
import { IMPORT_PREVIEW_ROWS } from './constants.ts';
import type { MessageKey } from './messages.ts';

export const IMPORT_STEPS = ['analyse', 'preview', 'import', 'log', 'complete'] as const;
export type ImportStep = (typeof IMPORT_STEPS)[number];
export const IMPORT_EXTENSIONS = ['.xlsx', '.xls'] as const;

/** .xlsx or .xls (case-insensitive) and not empty; null when acceptable. */
export function importFileProblem(file: { name: string; size: number }): MessageKey | null {
  const name = file.name.toLowerCase();
  if (!IMPORT_EXTENSIONS.some((e) => name.endsWith(e))) return 'import.invalidFileType';
  if (!(file.size > 0)) return 'import.emptyFile';
  return null;
}

export interface ImportRow<T> {
  index: number;
  data: T;
  errors: string[];
}

/** Rows with errors are not imported; no valid row at all is an error. */
export function splitImportRows<T>(rows: readonly ImportRow<T>[]): {
  valid: ImportRow<T>[];
  invalid: ImportRow<T>[];
  problem: MessageKey | null;
} {
  const valid = rows.filter((r) => r.errors.length === 0);
  const invalid = rows.filter((r) => r.errors.length > 0);
  return { valid, invalid, problem: valid.length === 0 ? 'import.noValidData' : null };
}

export function importPreview<T>(rows: readonly T[]): T[] {
  return rows.slice(0, IMPORT_PREVIEW_ROWS);
}

/**
 * Import limit: `limit` −1 = unlimited; otherwise remaining = limit − used (never negative). Exceeded when the
 * valid rows are more than the remaining count.
 */
export function importLimit(
  limit: number,
  used: number,
  rows: number,
): { remaining: number; exceeded: boolean } {
  if (limit === -1) return { remaining: Infinity, exceeded: false };
  const remaining = Math.max(0, limit - used);
  return { remaining, exceeded: rows > remaining };
}

export interface ImportProgress {
  processed: number;
  successful: number;
  errors: number;
}

export type ImportOutcome = 'success' | 'partial' | 'failure';

/** Full success, partial (some failed), failure (none succeeded). */
export function importOutcome(p: ImportProgress): ImportOutcome {
  if (p.successful > 0 && p.errors === 0) return 'success';
  if (p.successful > 0) return 'partial';
  return 'failure';
}

/** Cancelling is not possible while importing. */
export function canCancelImport(step: ImportStep): boolean {
  return step !== 'import';
}
