import { describe, expect, it } from 'vitest';
import {
  canCancelImport,
  importFileProblem,
  importLimit,
  importOutcome,
  importPreview,
  splitImportRows,
} from '../src/importExcel.ts';

describe('Excel import (SPEC §4/§5)', () => {
  it('accepts .xlsx/.xls that are not empty', () => {
    expect(importFileProblem({ name: 'users.XLSX', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'users.xls', size: 1 })).toBeNull();
    expect(importFileProblem({ name: 'users.csv', size: 10 })).toBe('import.invalidFileType');
    expect(importFileProblem({ name: 'users.xlsx', size: 0 })).toBe('import.emptyFile');
  });
  it('skips rows with errors; no valid rows is an error', () => {
    const rows = [
      { index: 1, data: 'a', errors: [] },
      { index: 2, data: 'b', errors: ['validation.emailRequired'] },
    ];
    const r = splitImportRows(rows);
    expect(r.valid.map((x) => x.index)).toEqual([1]);
    expect(r.invalid.map((x) => x.index)).toEqual([2]);
    expect(r.problem).toBeNull();
    expect(splitImportRows([rows[1]]).problem).toBe('import.noValidData');
  });
  it('previews the first 50 rows', () => {
    expect(importPreview(Array.from({ length: 51 }, (_, i) => i))).toHaveLength(50);
  });
  it('limit and remaining count', () => {
    expect(importLimit(10, 7, 3)).toEqual({ remaining: 3, exceeded: false });
    expect(importLimit(10, 7, 4)).toEqual({ remaining: 3, exceeded: true });
    expect(importLimit(5, 9, 0)).toEqual({ remaining: 0, exceeded: false });
    expect(importLimit(-1, 9, 1000).exceeded).toBe(false);
  });
  it('completion: full success, partial, failure; no cancel while importing', () => {
    expect(importOutcome({ processed: 3, successful: 3, errors: 0 })).toBe('success');
    expect(importOutcome({ processed: 3, successful: 2, errors: 1 })).toBe('partial');
    expect(importOutcome({ processed: 3, successful: 0, errors: 3 })).toBe('failure');
    expect(importOutcome({ processed: 0, successful: 0, errors: 0 })).toBe('failure');
    expect(canCancelImport('import')).toBe(false);
    expect(canCancelImport('preview')).toBe(true);
  });
});
