// Long lists' JSON made by SQLite (server/src/traccar/rowJsonSql.ts) is the JSON rowToJson/deviceToJson give, row
// for row, and where only JS can say (a real number, a date not in toISOString form) the query hands the row back.
// On an SQLite store of its own in both legs of the server tests: PostgreSQL lists through JS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/open.ts';
import {
  COLUMNS,
  DEVICE_JSON_SQL,
  deviceToJson,
  rowToJson,
  type Columns,
  type Row,
} from '../../src/traccar/model.ts';
import { rowJsonSql } from '../../src/traccar/rowJsonSql.ts';

const ISO = '2026-11-28T01:36:13.601Z';

/** Device columns for one row: a plain demo device, with `changes` on top. */
const device = (uniqueId: string, changes: Record<string, unknown> = {}) => ({
  attributes: '{"placa":"ABN8C61","fuelCapacity":50,"speedLimit":54.5,"nested":{"a":[1,"two",null,true]}}',
  groupId: 2,
  calendarId: 0,
  name: 'Chevrolet Onix ABN8C61',
  uniqueId,
  status: 'online',
  lastUpdate: ISO,
  positionId: 40621,
  phone: '+55 11 92086-6340',
  model: 'ST310U',
  contact: null,
  category: 'car',
  disabled: 0,
  expirationTime: null,
  ...changes,
});

/** Rows SQLite maps: every value as this store writes it, and the odd ones rowToJson still reads the same way. */
const MAPPED_IN_SQL: Array<Record<string, unknown>> = [
  device('plain'),
  device('stored-null-status', { status: null }),
  device('unknown-status', { status: 'unknown' }),
  device('other-status', { status: 'moving' }),
  device('disabled', { disabled: 1, expirationTime: '2027-01-01T00:00:00.000Z' }),
  device('no-attributes', { attributes: '' }),
  device('broken-attributes', { attributes: '{"a":' }),
  device('array-attributes', { attributes: '[1,2]' }),
  device('escapes', {
    name: 'Caminhão "Zé" \\ 1\n2\t3 \u2028 😀',
    attributes: JSON.stringify({
      note: 'quote " backslash \\ ctl \u0001 é 😀',
      '10': 'first',
      html: '<b>x</b>',
    }),
  }),
  device('empty-strings', { name: '', phone: '', model: '', category: '', lastUpdate: '' }),
  device('nulls', { status: null, lastUpdate: null, phone: null, model: null, category: null }),
  device('12345', { name: 2.5 }), // number-like text stays a string
];

/** Rows only JS can map: the query answers NULL for them. */
const MAPPED_IN_JS: Array<Record<string, unknown>> = [
  device('real-group', { groupId: 1.5 }),
  device('space-date', { lastUpdate: '2026-11-28 01:36:13' }),
  device('offset-date', { lastUpdate: '2026-11-28T01:36:13.601-03:00' }),
  device('no-such-day', { expirationTime: '2026-02-30T00:00:00.000Z' }),
];

describe('list JSON made by SQLite', () => {
  let store: Store;
  const columns = Object.keys(COLUMNS.devices);
  beforeAll(() => {
    store = openStore(':memory:');
    const insert = store.sql.prepare(
      `INSERT INTO devices (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    for (const d of [...MAPPED_IN_SQL, ...MAPPED_IN_JS]) insert.run(...columns.map((c) => d[c]));
  });
  afterAll(async () => store.close());

  const read = (excludeAttributes: boolean) => {
    const sql = rowJsonSql(COLUMNS.devices, excludeAttributes, DEVICE_JSON_SQL);
    return store.sql.prepare(`SELECT *, ${sql} AS _json FROM devices ORDER BY id`).all() as Array<
      Row & { _json: string | null }
    >;
  };

  for (const excludeAttributes of [false, true]) {
    it(`each device's text parses to what deviceToJson gives (excludeAttributes ${excludeAttributes})`, () => {
      const rows = read(excludeAttributes);
      expect(rows).toHaveLength(MAPPED_IN_SQL.length + MAPPED_IN_JS.length);
      for (const { _json, ...row } of rows) {
        const uniqueId = String(row.uniqueId);
        if (MAPPED_IN_JS.some((d) => d.uniqueId === uniqueId)) {
          expect(_json, uniqueId).toBeNull();
          continue;
        }
        expect(_json, uniqueId).not.toBeNull();
        expect(JSON.parse(_json!), uniqueId).toStrictEqual(deviceToJson(row as Row, excludeAttributes));
      }
    });
  }

  it('the fields keep their JSON types: booleans, numbers, strings, null, objects', () => {
    const plain = read(false).find((r) => r.uniqueId === 'plain')!;
    const json = JSON.parse(plain._json!) as Record<string, unknown>;
    expect(json).toMatchObject({ disabled: false, groupId: 2, status: 'online', contact: null });
    expect(json.lastUpdate).toBe('2026-11-28T01:36:13.601+00:00');
    expect(json.attributes).toStrictEqual({
      placa: 'ABN8C61',
      fuelCapacity: 50,
      speedLimit: 54.5,
      nested: { a: [1, 'two', null, true] },
    });
  });

  it('a resource without a rule of its own: every column kind as rowToJson writes it', () => {
    const kinds: Columns = { attributes: 'attrs', flag: 'bool', count: 'int', size: 'num', label: 'str' };
    Object.assign(kinds, { note: 'strNull', at: 'date' });
    store.sql.exec(
      'CREATE TABLE kinds (id INTEGER PRIMARY KEY, attributes TEXT, flag INTEGER, count INTEGER, ' +
        'size NUMERIC, label TEXT, note TEXT, at TEXT)',
    );
    const insert = store.sql.prepare('INSERT INTO kinds VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)');
    insert.run('{"x":1}', 1, 7, 3, 'a', null, ISO);
    insert.run(null, 0, null, null, null, 'n', null);
    insert.run('{}', 1, -4, 0.1, 'b', 'c', ISO); // a real: JS maps it
    const rows = store.sql
      .prepare(`SELECT *, ${rowJsonSql(kinds, false)} AS _json FROM kinds ORDER BY id`)
      .all() as Array<Row & { _json: string | null }>;
    const [first, second, third] = rows.map(({ _json, ...row }) => ({
      _json,
      expected: rowToJson(kinds, row as Row),
    }));
    expect(JSON.parse(first._json!)).toStrictEqual(first.expected);
    expect(JSON.parse(second._json!)).toStrictEqual(second.expected);
    expect(second.expected).toMatchObject({
      attributes: {},
      flag: false,
      count: 0,
      size: 0,
      label: '',
      note: 'n',
    });
    expect(third._json).toBeNull();
  });
});
