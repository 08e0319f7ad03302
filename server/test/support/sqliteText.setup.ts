// Vitest setup of the server's test projects: the tests' own statements, written in SQLite's dialect, run on
// PostgreSQL too (translated by pgTranslate.ts). The server never translates (db/postgres.ts prepare).
import { translateSqliteTextWith } from '../../src/db/postgres.ts';
import { translateSql } from './pgTranslate.ts';

translateSqliteTextWith(translateSql);
