// Embedded store migrations. Each entry runs once, in order, inside a transaction; the applied count is kept
// in SQLite's user_version. Append new steps; never edit a released one.
import type BetterSqlite3 from 'better-sqlite3';
import postgres from 'postgres';
import { pgMigrations } from './migrationsPg.ts';

const ATTR = `attributes TEXT NOT NULL DEFAULT '{}'`;

export const migrations: string[] = [
  `
  CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    login TEXT,
    email TEXT NOT NULL,
    phone TEXT,
    hashedPassword TEXT,
    readonly INTEGER NOT NULL DEFAULT 0,
    administrator INTEGER NOT NULL DEFAULT 0,
    map TEXT,
    latitude REAL NOT NULL DEFAULT 0,
    longitude REAL NOT NULL DEFAULT 0,
    zoom INTEGER NOT NULL DEFAULT 0,
    coordinateFormat TEXT,
    disabled INTEGER NOT NULL DEFAULT 0,
    expirationTime TEXT,
    deviceLimit INTEGER NOT NULL DEFAULT -1,
    userLimit INTEGER NOT NULL DEFAULT 0,
    deviceReadonly INTEGER NOT NULL DEFAULT 0,
    limitCommands INTEGER NOT NULL DEFAULT 0,
    disableReports INTEGER NOT NULL DEFAULT 0,
    fixedEmail INTEGER NOT NULL DEFAULT 0,
    poiLayer TEXT,
    totpKey TEXT,
    temporary INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );
  CREATE UNIQUE INDEX users_email ON users (lower(email));
  CREATE INDEX users_login ON users (lower(login));

  CREATE TABLE devices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    uniqueId TEXT NOT NULL UNIQUE,
    status TEXT,
    lastUpdate TEXT,
    positionId INTEGER NOT NULL DEFAULT 0,
    groupId INTEGER NOT NULL DEFAULT 0,
    calendarId INTEGER NOT NULL DEFAULT 0,
    phone TEXT,
    model TEXT,
    contact TEXT,
    category TEXT,
    disabled INTEGER NOT NULL DEFAULT 0,
    expirationTime TEXT,
    ${ATTR}
  );
  CREATE INDEX devices_group ON devices (groupId);

  CREATE TABLE positions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    deviceId INTEGER NOT NULL,
    protocol TEXT,
    serverTime TEXT NOT NULL,
    deviceTime TEXT NOT NULL,
    fixTime TEXT NOT NULL,
    valid INTEGER NOT NULL DEFAULT 1,
    latitude REAL NOT NULL,
    longitude REAL NOT NULL,
    altitude REAL NOT NULL DEFAULT 0,
    speed REAL NOT NULL DEFAULT 0,
    course REAL NOT NULL DEFAULT 0,
    address TEXT,
    accuracy REAL NOT NULL DEFAULT 0,
    network TEXT,
    geofenceIds TEXT,
    ${ATTR}
  );
  CREATE INDEX positions_device_time ON positions (deviceId, fixTime);

  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    eventTime TEXT NOT NULL,
    deviceId INTEGER NOT NULL,
    positionId INTEGER NOT NULL DEFAULT 0,
    geofenceId INTEGER NOT NULL DEFAULT 0,
    maintenanceId INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );
  CREATE INDEX events_device_time ON events (deviceId, eventTime);

  CREATE TABLE groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    groupId INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );

  CREATE TABLE geofences (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT,
    area TEXT NOT NULL,
    calendarId INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );

  CREATE TABLE drivers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    uniqueId TEXT NOT NULL UNIQUE,
    ${ATTR}
  );

  CREATE TABLE calendars (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '',
    ${ATTR}
  );

  CREATE TABLE maintenances (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    start REAL NOT NULL DEFAULT 0,
    period REAL NOT NULL DEFAULT 0,
    ${ATTR}
  );

  CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    description TEXT,
    always INTEGER NOT NULL DEFAULT 0,
    calendarId INTEGER NOT NULL DEFAULT 0,
    commandId INTEGER NOT NULL DEFAULT 0,
    notificators TEXT NOT NULL DEFAULT '',
    ${ATTR}
  );

  CREATE TABLE commands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    description TEXT,
    type TEXT NOT NULL,
    textChannel INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );

  CREATE TABLE computed_attributes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    description TEXT NOT NULL DEFAULT '',
    attribute TEXT NOT NULL,
    expression TEXT NOT NULL,
    type TEXT NOT NULL,
    priority INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE queued_commands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    deviceId INTEGER NOT NULL,
    type TEXT NOT NULL,
    textChannel INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    ${ATTR}
  );
  CREATE INDEX queued_commands_device ON queued_commands (deviceId);

  CREATE TABLE server (
    id INTEGER PRIMARY KEY,
    registration INTEGER NOT NULL DEFAULT 0,
    readonly INTEGER NOT NULL DEFAULT 0,
    deviceReadonly INTEGER NOT NULL DEFAULT 0,
    map TEXT,
    bingKey TEXT,
    mapUrl TEXT,
    overlayUrl TEXT,
    latitude REAL NOT NULL DEFAULT 0,
    longitude REAL NOT NULL DEFAULT 0,
    zoom INTEGER NOT NULL DEFAULT 0,
    forceSettings INTEGER NOT NULL DEFAULT 0,
    coordinateFormat TEXT,
    limitCommands INTEGER NOT NULL DEFAULT 0,
    disableReports INTEGER NOT NULL DEFAULT 0,
    fixedEmail INTEGER NOT NULL DEFAULT 0,
    poiLayer TEXT,
    announcement TEXT,
    ${ATTR}
  );
  INSERT INTO server (id) VALUES (1);

  CREATE TABLE links (
    ownerType TEXT NOT NULL,
    ownerId INTEGER NOT NULL,
    propertyType TEXT NOT NULL,
    propertyId INTEGER NOT NULL,
    PRIMARY KEY (ownerType, ownerId, propertyType, propertyId)
  ) WITHOUT ROWID;
  CREATE INDEX links_property ON links (propertyType, propertyId, ownerType);

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    userId INTEGER NOT NULL,
    origin TEXT,
    createdAt TEXT NOT NULL,
    expiresAt TEXT
  );

  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    userId INTEGER NOT NULL,
    expiresAt TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE password_resets (
    tokenHash TEXT PRIMARY KEY,
    userId INTEGER NOT NULL,
    expiresAt TEXT NOT NULL
  );
  `,
  // 1: lookups by user when a user is deleted or logs out everywhere; expired-session sweeps.
  `
  CREATE INDEX sessions_user ON sessions (userId);
  CREATE INDEX tokens_user ON tokens (userId);
  CREATE INDEX password_resets_user ON password_resets (userId);
  `,
  // 2: audit trail (GET /api/audit) and per-day API request counts (GET /api/statistics).
  `
  CREATE TABLE actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    actionTime TEXT NOT NULL,
    address TEXT,
    userId INTEGER NOT NULL,
    actionType TEXT NOT NULL,
    objectType TEXT,
    objectId INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );
  CREATE INDEX actions_time ON actions (actionTime);

  CREATE TABLE request_stats (
    day TEXT PRIMARY KEY,
    requests INTEGER NOT NULL DEFAULT 0
  );
  `,
  // 3: orders and scheduled reports (CONTRACT §3 Order, Report), linked through the links table
  // with the stems "order" and "report".
  `
  CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uniqueId TEXT NOT NULL,
    description TEXT,
    fromAddress TEXT,
    toAddress TEXT,
    ${ATTR}
  );

  CREATE TABLE reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    description TEXT,
    calendarId INTEGER NOT NULL DEFAULT 0,
    ${ATTR}
  );
  `,
  // 4: billing (server/src/ext/billing): invoices per user, integration settings by key, and the payment
  // provider's customer id of each user.
  `
  CREATE TABLE invoices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    userId INTEGER NOT NULL,
    dueDate TEXT NOT NULL,
    value REAL NOT NULL,
    status TEXT NOT NULL,
    paidDate TEXT,
    description TEXT NOT NULL DEFAULT '',
    invoiceUrl TEXT,
    externalId TEXT,
    createdAt TEXT NOT NULL
  );
  CREATE INDEX invoices_user ON invoices (userId);
  CREATE INDEX invoices_external ON invoices (externalId);

  CREATE TABLE integrations (
    key TEXT PRIMARY KEY,
    config TEXT NOT NULL
  );

  CREATE TABLE billing_customers (
    userId INTEGER NOT NULL,
    provider TEXT NOT NULL,
    externalId TEXT NOT NULL,
    PRIMARY KEY (userId, provider)
  );
  `,
  // Session hygiene: idle expiry (lastSeenAt), remember-me tokens revoked with the session they belong to.
  `
  ALTER TABLE sessions ADD COLUMN lastSeenAt TEXT;
  ALTER TABLE sessions ADD COLUMN tokenId TEXT;
  ALTER TABLE tokens ADD COLUMN kind TEXT NOT NULL DEFAULT 'api';
  ALTER TABLE tokens ADD COLUMN sessionId TEXT;
  `,
  // Shares of the extension API (GET/POST/PUT/DELETE /{ns}/shares): one row per link. The token is kept so its
  // creator can copy the link again; tokens.id (its SHA-256) is what logs a guest in, revoked on DELETE.
  `
  CREATE TABLE shares (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    creatorId INTEGER NOT NULL,
    guestId INTEGER NOT NULL,
    token TEXT NOT NULL,
    tokenId TEXT NOT NULL,
    deviceId INTEGER,
    groupId INTEGER,
    expirationTime TEXT NOT NULL,
    createdAt TEXT NOT NULL
  );
  CREATE INDEX shares_creator ON shares (creatorId);
  CREATE INDEX shares_guest ON shares (guestId);
  `,
  // Autolink: identifiers that reported without a device (the last report kept), offered at /autolink.
  `
  CREATE TABLE unknown_devices (
    uniqueId TEXT PRIMARY KEY,
    protocol TEXT,
    firstSeen TEXT NOT NULL,
    lastSeen TEXT NOT NULL,
    reports INTEGER NOT NULL DEFAULT 1,
    latitude REAL,
    longitude REAL,
    fixTime TEXT
  );
  CREATE INDEX unknown_devices_seen ON unknown_devices (lastSeen);
  `,
  // Gateway-mode shares (ext/sharesGateway.ts): the device/group and creator live upstream, so their names are
  // kept with the link for the list.
  `
  ALTER TABLE shares ADD COLUMN targetName TEXT;
  ALTER TABLE shares ADD COLUMN creatorName TEXT;
  `,
  // Fleet insights (live/activity.ts, docs/insights.md): per device, UTC hour and driver, the sums the dashboard and
  // the scores read instead of the positions.
  `
  CREATE TABLE activity (
    deviceId INTEGER NOT NULL,
    hour INTEGER NOT NULL,
    driver TEXT NOT NULL DEFAULT '',
    distance REAL NOT NULL DEFAULT 0,
    drivingMs INTEGER NOT NULL DEFAULT 0,
    idleMs INTEGER NOT NULL DEFAULT 0,
    overspeedMs INTEGER NOT NULL DEFAULT 0,
    overspeedExcess REAL NOT NULL DEFAULT 0,
    harshAcceleration INTEGER NOT NULL DEFAULT 0,
    harshBraking INTEGER NOT NULL DEFAULT 0,
    harshCornering INTEGER NOT NULL DEFAULT 0,
    alarmAcceleration INTEGER NOT NULL DEFAULT 0,
    alarmBraking INTEGER NOT NULL DEFAULT 0,
    alarmCornering INTEGER NOT NULL DEFAULT 0,
    maxSpeed REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (deviceId, hour, driver)
  ) WITHOUT ROWID;
  CREATE INDEX activity_hour ON activity (hour);
  `,
  // Log in as (GET /api/session/{id}, docs/users.md): the administrator who switched this session to another user,
  // so POST /{ns}/session/return can give it back.
  `
  ALTER TABLE sessions ADD COLUMN originalUserId INTEGER;
  `,
  // The monitoring center's alarm queue (issue #32, db/repos/alarms.ts, docs/monitoring.md): one row per alarm,
  // repeats of an unresolved one on the same device and type folded into it (count, last*); at most one unresolved
  // alarm per device and type, so two processes detecting together fold instead of doubling. Notes are their own
  // rows.
  `
  CREATE TABLE alarms (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    deviceId INTEGER NOT NULL,
    type TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    severity TEXT NOT NULL,
    positionId INTEGER NOT NULL DEFAULT 0,
    lastPositionId INTEGER NOT NULL DEFAULT 0,
    startTime TEXT NOT NULL,
    lastTime TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 1,
    state TEXT NOT NULL DEFAULT 'open',
    assignedUserId INTEGER,
    ackUserId INTEGER,
    ackTime TEXT,
    resolveUserId INTEGER,
    resolveTime TEXT,
    outcome TEXT
  );
  CREATE UNIQUE INDEX alarms_unresolved ON alarms (deviceId, type) WHERE state <> 'resolved';
  CREATE INDEX alarms_state ON alarms (state, startTime);
  CREATE INDEX alarms_time ON alarms (startTime);
  CREATE TABLE alarm_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    alarmId INTEGER NOT NULL,
    userId INTEGER NOT NULL,
    noteTime TEXT NOT NULL,
    text TEXT NOT NULL
  );
  CREATE INDEX alarm_notes_alarm ON alarm_notes (alarmId);
  `,
  // One position per device and fix time (issue #30): a tracker's resend is not stored twice. Duplicates already
  // stored are removed (the lowest id of each stays; devices, events and alarms that named another are pointed at
  // it).
  `
  UPDATE devices SET positionId = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k.deviceId = p.deviceId AND k.fixTime = p.fixTime WHERE p.id = devices.positionId)
    WHERE positionId IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k.deviceId = d.deviceId AND k.fixTime = d.fixTime AND k.id < d.id));
  UPDATE events SET positionId = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k.deviceId = p.deviceId AND k.fixTime = p.fixTime WHERE p.id = events.positionId)
    WHERE positionId IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k.deviceId = d.deviceId AND k.fixTime = d.fixTime AND k.id < d.id));
  UPDATE alarms SET positionId = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k.deviceId = p.deviceId AND k.fixTime = p.fixTime WHERE p.id = alarms.positionId)
    WHERE positionId IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k.deviceId = d.deviceId AND k.fixTime = d.fixTime AND k.id < d.id));
  UPDATE alarms SET lastPositionId = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k.deviceId = p.deviceId AND k.fixTime = p.fixTime WHERE p.id = alarms.lastPositionId)
    WHERE lastPositionId IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k.deviceId = d.deviceId AND k.fixTime = d.fixTime AND k.id < d.id));
  DELETE FROM positions WHERE EXISTS
    (SELECT 1 FROM positions k WHERE k.deviceId = positions.deviceId AND k.fixTime = positions.fixTime AND k.id < positions.id);
  DROP INDEX positions_device_time;
  CREATE UNIQUE INDEX positions_device_fix ON positions (deviceId, fixTime);
  `,
];

/** Tables whose rows have an integer id (an INSERT into them reports it as lastInsertRowid). */
export const TABLES_WITH_ID: ReadonlySet<string> = new Set(
  migrations.flatMap((m) => [...m.matchAll(/CREATE TABLE (\w+) \(\s*id INTEGER/g)].map((x) => x[1])),
);

/** Applies the pending steps (`upTo`: only the first ones, for a test that fills an older schema). */
export function migrate(sqlite: BetterSqlite3.Database, upTo = migrations.length): void {
  const applied = sqlite.pragma('user_version', { simple: true }) as number;
  for (let i = applied; i < upTo; i++) {
    sqlite.transaction(() => {
      sqlite.exec(migrations[i]);
      sqlite.pragma(`user_version = ${i + 1}`);
    })();
  }
}

/**
 * The same entries on PostgreSQL, in PostgreSQL's own text (db/migrationsPg.ts), with the applied count in
 * `rastro_schema` (`upTo`: only the first ones, for a test that fills an older schema), on a dedicated postgres.js
 * connection (the server's start-up, issue #30 session 31): an advisory lock makes processes starting together
 * apply them once, each entry in its own transaction; the connection is closed once done.
 */
/** How long migratePostgresAsync waits for its connection, in seconds (db/open.ts names it in its error). */
export const MIGRATE_CONNECT_TIMEOUT_S = 10;

export async function migratePostgresAsync(url: string, upTo = migrations.length): Promise<void> {
  const sql = postgres(url, {
    max: 1,
    onnotice: () => undefined,
    fetch_types: false, // db/pool.ts says why
    connect_timeout: MIGRATE_CONNECT_TIMEOUT_S,
    connection: { application_name: 'rastro-migrate' },
  });
  try {
    await sql`SELECT pg_advisory_lock(7231001)`;
    try {
      await sql`CREATE TABLE IF NOT EXISTS rastro_schema (version INTEGER NOT NULL)`;
      const [row] = await sql<Array<{ version: number }>>`SELECT version FROM rastro_schema`;
      if (!row) await sql`INSERT INTO rastro_schema (version) VALUES (0)`;
      for (let i = Number(row?.version ?? 0); i < upTo; i++) {
        await sql.begin(async (tx) => {
          for (const step of pgMigrations[i]) await tx.unsafe(step).simple();
          await tx.unsafe(`UPDATE rastro_schema SET version = ${i + 1}`);
        });
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(7231001)`.catch(() => undefined);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
