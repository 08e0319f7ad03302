// The ingestion's statements (db/repos/ingest.ts), compiled once by kysely: SQLite's synchronous batch's, on a SQLite
// store of their own whatever store the run uses (PostgreSQL's batches are one pooled statement each,
// db/repos/ingestPooled.ts, since session 37 the only ones): ids known at once inside and outside a transaction, a
// resend at the same fix time skipped, and the positional statements checked when prepared.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/open.ts';
import { insertQueuedCommandAsync, prepareIngestStatements } from '../../src/db/repos/ingest.ts';
import { preparedStatement, qb } from '../../src/db/repos/query.ts';
import { setPositionAttributes } from '../../src/db/repos/positions.ts';

const store = openStore(':memory:');
afterAll(() => store.close());

const position = (deviceId: number, fixTime: string, latitude = 1) => ({
  deviceId,
  protocol: 'osmand',
  serverTime: fixTime,
  deviceTime: fixTime,
  fixTime,
  valid: 1,
  latitude,
  longitude: 2,
  altitude: 0,
  speed: 3,
  course: 0,
  accuracy: 0,
  network: null,
  geofenceIds: null,
  attributes: '{}',
});

describe('the ingestion statements', () => {
  it('store a position with its id at once, outside and inside a transaction; a resend of the fix time is skipped', () => {
    const db = store.sql;
    const s = prepareIngestStatements(db);
    const t0 = '2026-11-29T10:00:00.000Z';
    const first = s.insertPosition.run(position(7, t0));
    expect(first.changes).toBe(1);
    const id = Number(first.lastInsertRowid);
    expect(id).toBeGreaterThan(0);
    expect(s.insertPosition.run(position(7, t0, 9)).changes).toBe(0); // outside a transaction: told at once

    const t1 = '2026-11-29T10:00:05.000Z';
    const inside = db.transaction(() => {
      const r = s.insertPosition.run(position(7, t1));
      // a resend inside the batch: said at once
      expect(s.insertPosition.run(position(7, t1, 9)).changes).toBe(0);
      const event = s.insertEvent.run({
        type: 'deviceMoving',
        eventTime: t1,
        deviceId: 7,
        positionId: Number(r.lastInsertRowid),
        geofenceId: 0,
        maintenanceId: 0,
        attributes: '{}',
      });
      return { position: Number(r.lastInsertRowid), event: Number(event.lastInsertRowid) };
    })();
    expect(inside.position).toBeGreaterThan(id);
    const stored = s.positionAt.get(7, t1) as { id: number; latitude: number };
    expect({ id: Number(stored.id), latitude: stored.latitude }).toEqual({
      id: inside.position,
      latitude: 1,
    });
    expect((s.positionById.get(id) as { fixTime: string }).fixTime).toBe(t0);
    const events = db.prepareNative(
      qb(db).selectFrom('events').select(['id', 'positionId']).where('deviceId', '=', 7).compile().sql,
    );
    expect(
      (events.all(7) as Array<{ id: number; positionId: number }>).map((e) => [
        Number(e.id),
        Number(e.positionId),
      ]),
    ).toEqual([[inside.event, inside.position]]);
  });

  it('queue, read and delete a command; update a device and a position by their positional statements', async () => {
    const db = store.sql;
    const s = prepareIngestStatements(db);
    const queued = (n: string) => ({
      deviceId: 3,
      type: 'custom',
      textChannel: 0,
      attributes: JSON.stringify({ data: n }),
      createdAt: '2026-11-29T10:00:00.000Z',
    });
    const a = await insertQueuedCommandAsync(db, queued('a'));
    const b = await insertQueuedCommandAsync(db, queued('b'));
    expect(b).toBeGreaterThan(a);
    expect(Number((s.firstQueued.get(3) as { id: number }).id)).toBe(a);
    s.deleteQueued.run(a);
    expect(Number((s.firstQueued.get(3) as { id: number }).id)).toBe(b);

    const p = Number(s.insertPosition.run(position(3, '2026-11-29T11:00:00.000Z')).lastInsertRowid);
    await setPositionAttributes(db, p, '{"odometer":5}'); // positions.ts, one autocommitted write
    expect((s.positionById.get(p) as { attributes: string }).attributes).toBe('{"odometer":5}');
  });

  it('a positional statement is refused when its parameters are not exactly the names, in order', () => {
    const db = store.sql;
    expect(() =>
      preparedStatement<{ deviceId: number }>(db, ['deviceId'], (p) =>
        qb(db).selectFrom('positions').selectAll().where('deviceId', '=', p.deviceId).limit(1),
      ),
    ).toThrow(/preparedStatement/);
    expect(() =>
      preparedStatement<{ a: number; b: number }>(db, ['b', 'a'], (p) =>
        qb(db).selectFrom('positions').selectAll().where('id', '=', p.a).where('deviceId', '=', p.b),
      ),
    ).toThrow(/preparedStatement/);
  });
});
