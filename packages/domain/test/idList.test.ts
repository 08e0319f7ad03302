import { describe, expect, it } from 'vitest';
import { ID_LIST_MAX, parseIdList, parseIdValue } from '../src/idList.ts';
import { idList } from '../src/schemas/common.ts';
import { readReportLink } from '../src/reportLinks.ts';

describe('id lists (CONTRACT §4: a repeated query parameter)', () => {
  it('takes a parameter given not at all, once or repeated', () => {
    expect(parseIdList(undefined).ids).toEqual([]);
    expect(parseIdList('7').ids).toEqual([7]);
    expect(parseIdList(['7', '3', '7'])).toEqual({ ids: [7, 3, 7], invalid: [], tooMany: false });
  });

  it('a value is whole digits from 1, blanks around it ignored', () => {
    expect(parseIdValue(' 12 ')).toBe(12);
    expect(parseIdValue('999999999999999')).toBe(999999999999999);
    expect(parseIdValue(5)).toBe(5);
    for (const bad of [
      '0',
      '',
      ' ',
      '-1',
      '+1',
      '1.0',
      '1e2',
      '0x10',
      '1,2',
      'abc',
      '1000000000000000',
      1.5,
      0,
    ])
      expect(parseIdValue(bad), String(bad)).toBeNull();
  });

  it('a comma list is not a list of ids', () => {
    expect(parseIdList('1,2')).toEqual({ ids: [], invalid: ['1,2'], tooMany: false });
  });

  it('more than ID_LIST_MAX values is too many', () => {
    expect(parseIdList(Array.from({ length: ID_LIST_MAX }, () => '1')).tooMany).toBe(false);
    expect(parseIdList(Array.from({ length: ID_LIST_MAX + 1 }, () => '1')).tooMany).toBe(true);
  });

  it('the query schema refuses a list with any invalid value, or too long', () => {
    expect(idList.parse(undefined)).toEqual([]);
    expect(idList.parse([' 4', '5'])).toEqual([4, 5]);
    expect(idList.safeParse(['4', 'x']).success).toBe(false);
    expect(idList.safeParse('0').success).toBe(false);
    expect(idList.safeParse('1,2').success).toBe(false);
    expect(idList.safeParse(Array.from({ length: ID_LIST_MAX + 1 }, () => '1')).success).toBe(false);
  });

  it('a report link keeps the valid ids and drops the rest (same value rule)', () => {
    const l = readReportLink(
      'deviceId=1e2&deviceId=%203&deviceId=0&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z',
    );
    expect(l?.deviceIds).toEqual([3]);
  });
});
