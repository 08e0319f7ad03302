// One spelling of a command type for every reader (issue #27): the permission gate (apiPermissions.ts
// commandRequirement), the server's POST /api/commands/send schema and the engine-block interlock all read the type
// through normalizeCommandType, so " engineStop ", "engineStop\t" and "ENGINESTOP" are all engineStop.
import { COMMAND_TYPES } from './types.ts';

const CANONICAL: ReadonlyMap<string, string> = new Map(COMMAND_TYPES.map((t) => [t.toLowerCase(), t]));

// Invisible format characters (zero-width space, joiners, BOM…) never belong in a type name.
const FORMAT_CHARS = /\p{Cf}/gu;

/**
 * A command type as sent to a device: without surrounding white space or invisible characters, and a known Traccar
 * type (COMMAND_TYPES) in its own spelling whatever the case ("ENGINESTOP" ⇒ "engineStop"). An unknown type is kept
 * (trimmed) as it is: protocols may have their own.
 */
export function normalizeCommandType(type: string): string {
  const t = type.replace(FORMAT_CHARS, '').trim();
  return CANONICAL.get(t.toLowerCase()) ?? t;
}
