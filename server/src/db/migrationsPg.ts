// PostgreSQL's steps for each entry of migrations.ts (decision 03: migrations as SQL), in the same order: entry i
// here is what `migrations[i]` does on PostgreSQL, one statement a step. They were written once from the SQLite
// text by the translator this store used until then (session 26, issue #30; the translator was retired in session
// 28) and are kept as they are, like the SQLite entries: a released step is never edited. A new migration adds
// its SQLite entry there and its PostgreSQL steps here; test/db/migrations-dialects.test.ts refuses lists of
// different lengths and checks that each entry has the same steps, in order, of the same kind and object.
export const pgMigrations: ReadonlyArray<readonly string[]> = [
  [
    `CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    login TEXT COLLATE "C",
    email TEXT COLLATE "C" NOT NULL,
    phone TEXT COLLATE "C",
    "hashedPassword" TEXT COLLATE "C",
    readonly BIGINT NOT NULL DEFAULT 0,
    administrator BIGINT NOT NULL DEFAULT 0,
    map TEXT COLLATE "C",
    latitude DOUBLE PRECISION NOT NULL DEFAULT 0,
    longitude DOUBLE PRECISION NOT NULL DEFAULT 0,
    zoom BIGINT NOT NULL DEFAULT 0,
    "coordinateFormat" TEXT COLLATE "C",
    disabled BIGINT NOT NULL DEFAULT 0,
    "expirationTime" TEXT COLLATE "C",
    "deviceLimit" BIGINT NOT NULL DEFAULT -1,
    "userLimit" BIGINT NOT NULL DEFAULT 0,
    "deviceReadonly" BIGINT NOT NULL DEFAULT 0,
    "limitCommands" BIGINT NOT NULL DEFAULT 0,
    "disableReports" BIGINT NOT NULL DEFAULT 0,
    "fixedEmail" BIGINT NOT NULL DEFAULT 0,
    "poiLayer" TEXT COLLATE "C",
    "totpKey" TEXT COLLATE "C",
    temporary BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE UNIQUE INDEX users_email ON users (lower(email))`,
    `CREATE INDEX users_login ON users (lower(login))`,
    `CREATE TABLE devices (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    "uniqueId" TEXT COLLATE "C" NOT NULL UNIQUE,
    status TEXT COLLATE "C",
    "lastUpdate" TEXT COLLATE "C",
    "positionId" BIGINT NOT NULL DEFAULT 0,
    "groupId" BIGINT NOT NULL DEFAULT 0,
    "calendarId" BIGINT NOT NULL DEFAULT 0,
    phone TEXT COLLATE "C",
    model TEXT COLLATE "C",
    contact TEXT COLLATE "C",
    category TEXT COLLATE "C",
    disabled BIGINT NOT NULL DEFAULT 0,
    "expirationTime" TEXT COLLATE "C",
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE INDEX devices_group ON devices ("groupId")`,
    `CREATE TABLE positions (
    id BIGSERIAL PRIMARY KEY,
    "deviceId" BIGINT NOT NULL,
    protocol TEXT COLLATE "C",
    "serverTime" TEXT COLLATE "C" NOT NULL,
    "deviceTime" TEXT COLLATE "C" NOT NULL,
    "fixTime" TEXT COLLATE "C" NOT NULL,
    valid BIGINT NOT NULL DEFAULT 1,
    latitude DOUBLE PRECISION NOT NULL,
    longitude DOUBLE PRECISION NOT NULL,
    altitude DOUBLE PRECISION NOT NULL DEFAULT 0,
    speed DOUBLE PRECISION NOT NULL DEFAULT 0,
    course DOUBLE PRECISION NOT NULL DEFAULT 0,
    address TEXT COLLATE "C",
    accuracy DOUBLE PRECISION NOT NULL DEFAULT 0,
    network TEXT COLLATE "C",
    "geofenceIds" TEXT COLLATE "C",
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE INDEX positions_device_time ON positions ("deviceId", "fixTime")`,
    `CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    type TEXT COLLATE "C" NOT NULL,
    "eventTime" TEXT COLLATE "C" NOT NULL,
    "deviceId" BIGINT NOT NULL,
    "positionId" BIGINT NOT NULL DEFAULT 0,
    "geofenceId" BIGINT NOT NULL DEFAULT 0,
    "maintenanceId" BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE INDEX events_device_time ON events ("deviceId", "eventTime")`,
    `CREATE TABLE groups (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    "groupId" BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE geofences (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C",
    area TEXT COLLATE "C" NOT NULL,
    "calendarId" BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE drivers (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    "uniqueId" TEXT COLLATE "C" NOT NULL UNIQUE,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE calendars (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    data TEXT COLLATE "C" NOT NULL DEFAULT '',
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE maintenances (
    id BIGSERIAL PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    start DOUBLE PRECISION NOT NULL DEFAULT 0,
    period DOUBLE PRECISION NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE notifications (
    id BIGSERIAL PRIMARY KEY,
    type TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C",
    always BIGINT NOT NULL DEFAULT 0,
    "calendarId" BIGINT NOT NULL DEFAULT 0,
    "commandId" BIGINT NOT NULL DEFAULT 0,
    notificators TEXT COLLATE "C" NOT NULL DEFAULT '',
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE commands (
    id BIGSERIAL PRIMARY KEY,
    description TEXT COLLATE "C",
    type TEXT COLLATE "C" NOT NULL,
    "textChannel" BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE computed_attributes (
    id BIGSERIAL PRIMARY KEY,
    description TEXT COLLATE "C" NOT NULL DEFAULT '',
    attribute TEXT COLLATE "C" NOT NULL,
    expression TEXT COLLATE "C" NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    priority BIGINT NOT NULL DEFAULT 0
  )`,
    `CREATE TABLE queued_commands (
    id BIGSERIAL PRIMARY KEY,
    "deviceId" BIGINT NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    "textChannel" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TEXT COLLATE "C" NOT NULL,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE INDEX queued_commands_device ON queued_commands ("deviceId")`,
    `CREATE TABLE server (
    id BIGINT PRIMARY KEY,
    registration BIGINT NOT NULL DEFAULT 0,
    readonly BIGINT NOT NULL DEFAULT 0,
    "deviceReadonly" BIGINT NOT NULL DEFAULT 0,
    map TEXT COLLATE "C",
    "bingKey" TEXT COLLATE "C",
    "mapUrl" TEXT COLLATE "C",
    "overlayUrl" TEXT COLLATE "C",
    latitude DOUBLE PRECISION NOT NULL DEFAULT 0,
    longitude DOUBLE PRECISION NOT NULL DEFAULT 0,
    zoom BIGINT NOT NULL DEFAULT 0,
    "forceSettings" BIGINT NOT NULL DEFAULT 0,
    "coordinateFormat" TEXT COLLATE "C",
    "limitCommands" BIGINT NOT NULL DEFAULT 0,
    "disableReports" BIGINT NOT NULL DEFAULT 0,
    "fixedEmail" BIGINT NOT NULL DEFAULT 0,
    "poiLayer" TEXT COLLATE "C",
    announcement TEXT COLLATE "C",
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `INSERT INTO server (id) VALUES (1) RETURNING id`,
    `CREATE TABLE links (
    "ownerType" TEXT COLLATE "C" NOT NULL,
    "ownerId" BIGINT NOT NULL,
    "propertyType" TEXT COLLATE "C" NOT NULL,
    "propertyId" BIGINT NOT NULL,
    PRIMARY KEY ("ownerType", "ownerId", "propertyType", "propertyId")
  )`,
    `CREATE INDEX links_property ON links ("propertyType", "propertyId", "ownerType")`,
    `CREATE TABLE sessions (
    id TEXT COLLATE "C" PRIMARY KEY,
    "userId" BIGINT NOT NULL,
    origin TEXT COLLATE "C",
    "createdAt" TEXT COLLATE "C" NOT NULL,
    "expiresAt" TEXT COLLATE "C"
  )`,
    `CREATE TABLE tokens (
    id TEXT COLLATE "C" PRIMARY KEY,
    "userId" BIGINT NOT NULL,
    "expiresAt" TEXT COLLATE "C" NOT NULL,
    revoked BIGINT NOT NULL DEFAULT 0
  )`,
    `CREATE TABLE password_resets (
    "tokenHash" TEXT COLLATE "C" PRIMARY KEY,
    "userId" BIGINT NOT NULL,
    "expiresAt" TEXT COLLATE "C" NOT NULL
  )`,
  ],
  [
    `CREATE INDEX sessions_user ON sessions ("userId")`,
    `CREATE INDEX tokens_user ON tokens ("userId")`,
    `CREATE INDEX password_resets_user ON password_resets ("userId")`,
  ],
  [
    `CREATE TABLE actions (
    id BIGSERIAL PRIMARY KEY,
    "actionTime" TEXT COLLATE "C" NOT NULL,
    address TEXT COLLATE "C",
    "userId" BIGINT NOT NULL,
    "actionType" TEXT COLLATE "C" NOT NULL,
    "objectType" TEXT COLLATE "C",
    "objectId" BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE INDEX actions_time ON actions ("actionTime")`,
    `CREATE TABLE request_stats (
    day TEXT COLLATE "C" PRIMARY KEY,
    requests BIGINT NOT NULL DEFAULT 0
  )`,
  ],
  [
    `CREATE TABLE orders (
    id BIGSERIAL PRIMARY KEY,
    "uniqueId" TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C",
    "fromAddress" TEXT COLLATE "C",
    "toAddress" TEXT COLLATE "C",
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
    `CREATE TABLE reports (
    id BIGSERIAL PRIMARY KEY,
    type TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C",
    "calendarId" BIGINT NOT NULL DEFAULT 0,
    attributes TEXT COLLATE "C" NOT NULL DEFAULT '{}'
  )`,
  ],
  [
    `CREATE TABLE invoices (
    id BIGSERIAL PRIMARY KEY,
    "userId" BIGINT NOT NULL,
    "dueDate" TEXT COLLATE "C" NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    status TEXT COLLATE "C" NOT NULL,
    "paidDate" TEXT COLLATE "C",
    description TEXT COLLATE "C" NOT NULL DEFAULT '',
    "invoiceUrl" TEXT COLLATE "C",
    "externalId" TEXT COLLATE "C",
    "createdAt" TEXT COLLATE "C" NOT NULL
  )`,
    `CREATE INDEX invoices_user ON invoices ("userId")`,
    `CREATE INDEX invoices_external ON invoices ("externalId")`,
    `CREATE TABLE integrations (
    key TEXT COLLATE "C" PRIMARY KEY,
    config TEXT COLLATE "C" NOT NULL
  )`,
    `CREATE TABLE billing_customers (
    "userId" BIGINT NOT NULL,
    provider TEXT COLLATE "C" NOT NULL,
    "externalId" TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY ("userId", provider)
  )`,
  ],
  [
    `ALTER TABLE sessions ADD COLUMN "lastSeenAt" TEXT COLLATE "C"`,
    `ALTER TABLE sessions ADD COLUMN "tokenId" TEXT COLLATE "C"`,
    `ALTER TABLE tokens ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'api'`,
    `ALTER TABLE tokens ADD COLUMN "sessionId" TEXT COLLATE "C"`,
  ],
  [
    `CREATE TABLE shares (
    id BIGSERIAL PRIMARY KEY,
    "creatorId" BIGINT NOT NULL,
    "guestId" BIGINT NOT NULL,
    token TEXT COLLATE "C" NOT NULL,
    "tokenId" TEXT COLLATE "C" NOT NULL,
    "deviceId" BIGINT,
    "groupId" BIGINT,
    "expirationTime" TEXT COLLATE "C" NOT NULL,
    "createdAt" TEXT COLLATE "C" NOT NULL
  )`,
    `CREATE INDEX shares_creator ON shares ("creatorId")`,
    `CREATE INDEX shares_guest ON shares ("guestId")`,
  ],
  [
    `CREATE TABLE unknown_devices (
    "uniqueId" TEXT COLLATE "C" PRIMARY KEY,
    protocol TEXT COLLATE "C",
    "firstSeen" TEXT COLLATE "C" NOT NULL,
    "lastSeen" TEXT COLLATE "C" NOT NULL,
    reports BIGINT NOT NULL DEFAULT 1,
    latitude DOUBLE PRECISION,
    longitude DOUBLE PRECISION,
    "fixTime" TEXT COLLATE "C"
  )`,
    `CREATE INDEX unknown_devices_seen ON unknown_devices ("lastSeen")`,
  ],
  [
    `ALTER TABLE shares ADD COLUMN "targetName" TEXT COLLATE "C"`,
    `ALTER TABLE shares ADD COLUMN "creatorName" TEXT COLLATE "C"`,
  ],
  [
    `CREATE TABLE activity (
    "deviceId" BIGINT NOT NULL,
    hour BIGINT NOT NULL,
    driver TEXT COLLATE "C" NOT NULL DEFAULT '',
    distance DOUBLE PRECISION NOT NULL DEFAULT 0,
    "drivingMs" BIGINT NOT NULL DEFAULT 0,
    "idleMs" BIGINT NOT NULL DEFAULT 0,
    "overspeedMs" BIGINT NOT NULL DEFAULT 0,
    "overspeedExcess" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "harshAcceleration" BIGINT NOT NULL DEFAULT 0,
    "harshBraking" BIGINT NOT NULL DEFAULT 0,
    "harshCornering" BIGINT NOT NULL DEFAULT 0,
    "alarmAcceleration" BIGINT NOT NULL DEFAULT 0,
    "alarmBraking" BIGINT NOT NULL DEFAULT 0,
    "alarmCornering" BIGINT NOT NULL DEFAULT 0,
    "maxSpeed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY ("deviceId", hour, driver)
  )`,
    `CREATE INDEX activity_hour ON activity (hour)`,
  ],
  [`ALTER TABLE sessions ADD COLUMN "originalUserId" BIGINT`],
  [
    `CREATE TABLE alarms (
    id BIGSERIAL PRIMARY KEY,
    "deviceId" BIGINT NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    detail TEXT COLLATE "C" NOT NULL DEFAULT '',
    severity TEXT COLLATE "C" NOT NULL,
    "positionId" BIGINT NOT NULL DEFAULT 0,
    "lastPositionId" BIGINT NOT NULL DEFAULT 0,
    "startTime" TEXT COLLATE "C" NOT NULL,
    "lastTime" TEXT COLLATE "C" NOT NULL,
    count BIGINT NOT NULL DEFAULT 1,
    state TEXT COLLATE "C" NOT NULL DEFAULT 'open',
    "assignedUserId" BIGINT,
    "ackUserId" BIGINT,
    "ackTime" TEXT COLLATE "C",
    "resolveUserId" BIGINT,
    "resolveTime" TEXT COLLATE "C",
    outcome TEXT COLLATE "C"
  )`,
    `CREATE UNIQUE INDEX alarms_unresolved ON alarms ("deviceId", type) WHERE state <> 'resolved'`,
    `CREATE INDEX alarms_state ON alarms (state, "startTime")`,
    `CREATE INDEX alarms_time ON alarms ("startTime")`,
    `CREATE TABLE alarm_notes (
    id BIGSERIAL PRIMARY KEY,
    "alarmId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "noteTime" TEXT COLLATE "C" NOT NULL,
    text TEXT COLLATE "C" NOT NULL
  )`,
    `CREATE INDEX alarm_notes_alarm ON alarm_notes ("alarmId")`,
  ],
  [
    `UPDATE devices SET "positionId" = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k."deviceId" = p."deviceId" AND k."fixTime" = p."fixTime" WHERE p.id = devices."positionId")
    WHERE "positionId" IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k."deviceId" = d."deviceId" AND k."fixTime" = d."fixTime" AND k.id < d.id))`,
    `UPDATE events SET "positionId" = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k."deviceId" = p."deviceId" AND k."fixTime" = p."fixTime" WHERE p.id = events."positionId")
    WHERE "positionId" IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k."deviceId" = d."deviceId" AND k."fixTime" = d."fixTime" AND k.id < d.id))`,
    `UPDATE alarms SET "positionId" = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k."deviceId" = p."deviceId" AND k."fixTime" = p."fixTime" WHERE p.id = alarms."positionId")
    WHERE "positionId" IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k."deviceId" = d."deviceId" AND k."fixTime" = d."fixTime" AND k.id < d.id))`,
    `UPDATE alarms SET "lastPositionId" = (SELECT MIN(k.id) FROM positions p JOIN positions k ON k."deviceId" = p."deviceId" AND k."fixTime" = p."fixTime" WHERE p.id = alarms."lastPositionId")
    WHERE "lastPositionId" IN (SELECT d.id FROM positions d WHERE EXISTS (SELECT 1 FROM positions k WHERE k."deviceId" = d."deviceId" AND k."fixTime" = d."fixTime" AND k.id < d.id))`,
    `DELETE FROM positions WHERE EXISTS
    (SELECT 1 FROM positions k WHERE k."deviceId" = positions."deviceId" AND k."fixTime" = positions."fixTime" AND k.id < positions.id)`,
    `DROP INDEX positions_device_time`,
    `CREATE UNIQUE INDEX positions_device_fix ON positions ("deviceId", "fixTime")`,
  ],
];
