// The store's migrations in both dialects (db/migrations.ts for SQLite, db/migrationsPg.ts for PostgreSQL): one
// PostgreSQL entry per SQLite entry, and the PostgreSQL steps exactly what the translator they were written from gives
// for the SQLite text (test/support/pgTranslate.ts, the server's translator until session 27). The PostgreSQL tests run every step on a real server.
import { describe, expect, it } from 'vitest';
import { migrations, TABLES_WITH_ID } from '../../src/db/migrations.ts';
import { pgMigrations } from '../../src/db/migrationsPg.ts';
import { translateSql } from '../support/pgTranslate.ts';

const statements = (sql: string) =>
  sql
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

describe('migrations in both dialects', () => {
  it('has one PostgreSQL entry for each SQLite entry', () => {
    expect(pgMigrations.length).toBe(migrations.length);
  });

  it('each PostgreSQL entry is the SQLite entry in PostgreSQL text, step for step', () => {
    migrations.forEach((entry, i) => {
      const translated = statements(entry).map((s) => translateSql(s, TABLES_WITH_ID, true).text);
      expect(pgMigrations[i], `entry ${i}`).toEqual(translated);
    });
  });
});
