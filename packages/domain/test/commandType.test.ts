import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES, commandRequirement, normalizeCommandType } from '../src/index.ts';

describe('normalizeCommandType (issue #27: one spelling for the gate, the schema and the interlock)', () => {
  it('trims white space and invisible characters', () => {
    expect(normalizeCommandType(' engineStop ')).toBe('engineStop');
    expect(normalizeCommandType('engineResume\t')).toBe('engineResume');
    expect(normalizeCommandType('\nengineStop\r\n')).toBe('engineStop');
    expect(normalizeCommandType('\u200bengineStop\ufeff')).toBe('engineStop');
  });

  it("gives a known type Traccar's spelling whatever the case", () => {
    expect(normalizeCommandType('ENGINESTOP')).toBe('engineStop');
    expect(normalizeCommandType('EngineResume')).toBe('engineResume');
    expect(normalizeCommandType('positionsingle')).toBe('positionSingle');
    for (const t of COMMAND_TYPES) expect(normalizeCommandType(t.toUpperCase())).toBe(t);
  });

  it('keeps an unknown type as it is, trimmed', () => {
    expect(normalizeCommandType(' myProtocolThing ')).toBe('myProtocolThing');
    expect(normalizeCommandType('engine Stop')).toBe('engine Stop');
    expect(normalizeCommandType('')).toBe('');
  });

  it('the gate reads the normalised type', () => {
    expect(commandRequirement(' ENGINESTOP\t')).toEqual({ area: 'devices', action: 'lock' });
    expect(commandRequirement('engineresume ')).toEqual({ area: 'devices', action: 'unlock' });
    expect(commandRequirement(' positionSingle')).toEqual({ area: 'devices', action: 'command' });
    expect(commandRequirement(undefined)).toEqual({ area: 'devices', action: 'command' });
  });
});
