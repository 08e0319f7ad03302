import { describe, expect, it } from 'vitest';
import {
  CHANGELOG,
  CHANGELOG_ENTRY_TYPES,
  changelogTypeKey,
  initialClickCounter,
  versionClick,
  type ClickCounter,
} from '../src/changelog.ts';
import { CHANGELOG_DIALOG_WIDTH } from '../src/constants.ts';
import { isMessageKey } from '../src/messages.ts';

function clicks(times: number[], admin = true): { opened: number[]; state: ClickCounter } {
  let state = initialClickCounter();
  const opened: number[] = [];
  for (const t of times) {
    const r = versionClick(state, t, admin);
    state = r.state;
    if (r.open) opened.push(t);
  }
  return { opened, state };
}

describe('version clicks (SPEC §2)', () => {
  it('opens on the 10th click when each is within 2 s of the last', () => {
    const t = Array.from({ length: 10 }, (_, i) => 1000 + i * 2000);
    expect(clicks(t).opened).toEqual([t[9]]);
    expect(clicks(t.slice(0, 9)).state.count).toBe(9);
  });
  it('a gap over 2 s restarts the count', () => {
    const t = [0, 1000, 2000, 4001, 5000, 6000, 7000, 8000, 9000, 10000, 11000];
    expect(clicks(t).opened).toEqual([]);
    expect(clicks(t).state.count).toBe(8);
    expect(clicks([...t, 12000, 13000]).opened).toEqual([13000]);
  });
  it('resets after opening; non-admins never open', () => {
    const t = Array.from({ length: 20 }, (_, i) => i * 100);
    expect(clicks(t).opened).toEqual([900, 1900]);
    expect(clicks(t, false).opened).toEqual([]);
  });
});

describe('changelog data', () => {
  it('lists v3.2.1 down to v3.0.0 with known types and catalogued keys', () => {
    expect(CHANGELOG[0].version).toBe('v3.2.1');
    expect(CHANGELOG.at(-1)!.version).toBe('v3.0.0');
    for (const v of CHANGELOG) {
      expect(v.version).toMatch(/^v3\.[0-2]\.\d$/);
      for (const e of v.entries) {
        expect(CHANGELOG_ENTRY_TYPES).toContain(e.type);
        expect(isMessageKey(e.key)).toBe(true);
      }
    }
    const used = new Set(CHANGELOG.flatMap((v) => v.entries.map((e) => e.type)));
    expect([...used].sort()).toEqual([...CHANGELOG_ENTRY_TYPES].sort());
    for (const t of CHANGELOG_ENTRY_TYPES) expect(isMessageKey(changelogTypeKey(t))).toBe(true);
    expect(CHANGELOG_DIALOG_WIDTH).toBe(750);
  });
});
