// The live core's commands (live/ingest.ts's LiveCore extends it): the receivers that deliver a command now
// (commandRouter.ts) and the commands queued for a device's next report, which an ingestion batch delivers.
import type { Command, Event, QueuedCommand } from '@rastro/domain';
import {
  devicesWithQueuedCommands,
  insertQueuedCommandAsync,
  prepareIngestStatements,
  type IngestStatements,
} from '../db/repos/ingest.ts';
import type { SqlDatabase } from '../db/sql.ts';
import type { LiveCache } from './cache.ts';
import { CommandRouter, type CommandHandler, type CommandSink } from './commandRouter.ts';
import { DeviceStates } from './deviceStates.ts';
import { iso, queuedFromRow, type QueuedDbRow } from './json.ts';
import { storeEventIn } from './statusSweep.ts';
import type { QueuedSource } from './pooledBatches.ts';

export abstract class LiveCommands extends DeviceStates {
  /** The live core's statements, prepared once (db/repos/ingest.ts). */
  protected readonly sql: IngestStatements;
  /** The devices with queued commands (each report takes one). */
  protected readonly queuedDevices = new Set<number>();
  /** Counts the commands queued (a pooled batch's read-ahead of queued commands is then stale: ingest.ts). */
  protected queuedEpoch = 0;
  /** Live command receivers (the simulator's trackers, registered handlers): commandRouter.ts. */
  protected readonly router: CommandRouter;
  /** The devices' answers being stored (each in its own transaction, after the receiver answered). */
  private readonly storingResults = new Set<Promise<unknown>>();

  /** The store readQueuedDevices reads. */
  private readonly queuedStore: SqlDatabase;

  constructor(cache: LiveCache, db: SqlDatabase, warn: (err: unknown, deviceId: number) => void) {
    super(cache, db);
    this.queuedStore = db;
    this.sql = prepareIngestStatements(db);
    this.router = new CommandRouter(warn, (deviceId, result) => {
      const storing: Promise<unknown> = this.commandResult(deviceId, result)
        .catch((err: unknown) => warn(err, deviceId))
        .finally(() => this.storingResults.delete(storing));
      this.storingResults.add(storing);
    });
  }

  /**
   * The devices with commands queued in the store, read on the pool (issue #30: the main thread never waits on it);
   * registerLive awaits it before anything is served. Added, never replacing: a device queued meanwhile stays.
   */
  async readQueuedDevices(): Promise<void> {
    for (const deviceId of await devicesWithQueuedCommands(this.queuedStore))
      this.queuedDevices.add(deviceId);
  }

  /** The queued commands a batch of the store's own transaction delivers (read and deleted in it). */
  protected readonly storeQueue: QueuedSource = {
    first: (deviceId) => this.sql.firstQueued.get(deviceId) as QueuedDbRow | undefined,
    take: (q) => void this.sql.deleteQueued.run(q.id),
    none: (deviceId) => !this.sql.firstQueued.get(deviceId),
  };

  /** Stores events in one transaction and publishes them (ingest.ts). */
  abstract emitEvents(
    make: (tx: SqlDatabase) => Promise<Event[]>,
    changedDevices?: number[],
  ): Promise<Event[]>;

  /** Records a device's answer to a command (event commandResult with attributes.result). */
  async commandResult(deviceId: number, result: string): Promise<Event> {
    const pos = await this.latestPositionAsync(deviceId);
    const attributes = { result };
    const [event] = await this.emitEvents(async (tx) => [
      await storeEventIn(tx, 'commandResult', deviceId, null, {
        positionId: pos?.id ?? 0,
        eventTime: iso(Date.now()),
        attributes,
      }),
    ]);
    return event;
  }

  /** Every answer the receivers gave so far stored or refused (tests; the answers are stored asynchronously). */
  async resultsSettled(): Promise<void> {
    await Promise.all([...this.storingResults]);
  }

  /** A receiver for one device (tests, connected channels); returns its removal. */
  onCommand(uniqueId: string, handler: CommandHandler): () => void {
    return this.router.on(uniqueId, handler);
  }

  /** Registers a receiver for many devices at once (the simulator). */
  addCommandSink(sink: CommandSink): () => void {
    return this.router.addSink(sink);
  }

  // The device's uniqueId names its receiver: read from the live cache made fresh on the pool (freshAsync: on
  // PostgreSQL the main thread never waits for a reload, issue #30), so a device just created or renamed is known.

  /** The command types a receiver declares for the device (the simulated trackers), or null. */
  async commandTypesOf(deviceId: number): Promise<readonly string[] | null> {
    const d = (await this.cache.freshAsync()).device(deviceId);
    return d ? this.router.typesFor(d.uniqueId) : null;
  }

  /** A command goes live when the device is online and something can deliver it now. */
  async canSendLive(deviceId: number): Promise<boolean> {
    const d = (await this.cache.freshAsync()).device(deviceId);
    return !!d && this.isOnline(deviceId) && !!this.router.handler(d.uniqueId);
  }

  /** Delivers a command now; a string answer from the receiver becomes a commandResult event. */
  async sendLive(deviceId: number, command: Command): Promise<void> {
    const d = (await this.cache.freshAsync()).device(deviceId);
    const h = d ? this.router.handler(d.uniqueId) : undefined;
    if (!h) throw new Error('Device is not reachable');
    await this.router.call(deviceId, h, command);
  }

  /** Queues a command for the device's next report (stored on the write client on PostgreSQL). */
  async queueCommand(
    deviceId: number,
    c: Pick<Command, 'type' | 'textChannel' | 'attributes'>,
  ): Promise<QueuedCommand> {
    const row = {
      deviceId,
      type: c.type,
      textChannel: c.textChannel ? 1 : 0,
      attributes: JSON.stringify(c.attributes ?? {}),
      createdAt: new Date().toISOString(),
    };
    const id = await insertQueuedCommandAsync(this.queuedStore, row);
    this.queuedDevices.add(deviceId);
    this.queuedEpoch++;
    return queuedFromRow({ ...row, id });
  }
}
