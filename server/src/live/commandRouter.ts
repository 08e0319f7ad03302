// Who can take a command for a device right now (ingest.ts's LiveCore asks): a handler registered for one device
// (tests, connected channels) or a sink serving many (the simulator's trackers), which may also declare the
// command types it executes. A string answer from a receiver is reported back as the command's result.
import type { Command } from '@rastro/domain';

/** A command receiver for devices reachable "live" (the simulator, or any connected channel). */
export type CommandHandler = (command: Command) => void | string | Promise<void | string | undefined>;

export interface CommandSink {
  /** Whether this sink can deliver to the device right now. */
  accepts(uniqueId: string): boolean;
  send(uniqueId: string, command: Command): void | string | Promise<void | string | undefined>;
  /** The command types this sink executes for the device (null when it is not one of its devices). */
  typesFor?(uniqueId: string): readonly string[] | null;
}

export class CommandRouter {
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly sinks = new Set<CommandSink>();

  constructor(
    private readonly onError: (err: unknown, deviceId: number) => void,
    private readonly onResult: (deviceId: number, result: string) => void,
  ) {}

  on(uniqueId: string, handler: CommandHandler): () => void {
    this.handlers.set(uniqueId, handler);
    return () => {
      if (this.handlers.get(uniqueId) === handler) this.handlers.delete(uniqueId);
    };
  }

  addSink(sink: CommandSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  typesFor(uniqueId: string): readonly string[] | null {
    for (const s of this.sinks) {
      const types = s.typesFor?.(uniqueId);
      if (types) return types;
    }
    return null;
  }

  /** The receiver that can deliver to the device now, if any. */
  handler(uniqueId: string): CommandHandler | undefined {
    const h = this.handlers.get(uniqueId);
    if (h) return h;
    for (const s of this.sinks) if (s.accepts(uniqueId)) return (c) => s.send(uniqueId, c);
    return undefined;
  }

  /** Calls a receiver; its string answer goes to onResult, a failure to onError (never thrown). */
  async call(deviceId: number, h: CommandHandler, command: Command): Promise<void> {
    try {
      const result = await h(command);
      if (typeof result === 'string') this.onResult(deviceId, result);
    } catch (err) {
      this.onError(err, deviceId);
    }
  }
}
