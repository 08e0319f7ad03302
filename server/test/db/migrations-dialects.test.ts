// The store's migrations in both dialects (db/migrations.ts for SQLite, db/migrationsPg.ts for PostgreSQL): one
// PostgreSQL entry per SQLite entry. (Until session 28 each PostgreSQL step was also compared with what the tests'
// SQLite→PostgreSQL translator gave for the SQLite text; the translator is gone.) The PostgreSQL tests run every step
// on a real server.
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations.ts';
import { pgMigrations } from '../../src/db/migrationsPg.ts';

const statements = (sql: string) =>
  sql
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

describe('migrations in both dialects', () => {
  it('has one PostgreSQL entry for each SQLite entry', () => {
    expect(pgMigrations.length).toBe(migrations.length);
  });

  it('each PostgreSQL entry has the steps of the SQLite entry, in order, on the same tables', () => {
    // a step's kind and object: `CREATE TABLE users`, `CREATE UNIQUE INDEX …`, `UPDATE devices` (quotes aside)
    const head = (step: string) => step.replace(/"/g, '').split(/\s+/).slice(0, 4).join(' ').toUpperCase();
    migrations.forEach((entry, i) => {
      expect(pgMigrations[i].map(head), `entry ${i}`).toEqual(statements(entry).map(head));
    });
  });
});
