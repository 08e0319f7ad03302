import { describe, expect, it } from 'vitest';
import { favoriteAttributes, parseAttributeList, togglePinned } from '../src/favorites.ts';

describe('favourite device attributes', () => {
  it('merges user then server lists without duplicates', () => {
    expect(
      favoriteAttributes(
        { attributes: { 'rastro.deviceAttributes': 'power, sat,ignition' } },
        { attributes: { 'rastro.deviceAttributes': 'sat,fuel' } },
      ),
    ).toEqual([
      { key: 'sat', source: 'user' },
      { key: 'fuel', source: 'user' },
      { key: 'power', source: 'server' },
      { key: 'ignition', source: 'server' },
    ]);
    expect(favoriteAttributes(null, null)).toEqual([]);
    expect(parseAttributeList(' a,,b ')).toEqual(['a', 'b']);
  });
  it('pins and unpins', () => {
    expect(togglePinned('a,b', 'c')).toBe('a,b,c');
    expect(togglePinned('a,b', 'a')).toBe('b');
    expect(togglePinned(undefined, 'a')).toBe('a');
  });
});
