import { describe, expect, it } from 'vitest';
import * as C from '../src/constants.ts';

describe('SPEC §9 constants', () => {
  it('has the table values', () => {
    expect(C.SOCKET_RECONNECT_MS).toBe(5000);
    expect(C.POSITIONS_BATCH_SIZE).toBe(500);
    expect(C.CLIENT_A_TIMEOUT_MS).toBe(30000);
    expect(C.CLIENT_B_TIMEOUT_MS).toBe(60000);
    expect(C.MOBILE_MAX_WIDTH_PX).toBe(768);
    expect(C.HEADER_REFRESH_MS).toBe(60000);
    expect(C.REPORT_DEFAULT_PAGE).toBe(1);
    expect(C.REPORT_DEFAULT_LIMIT).toBe(25);
    expect(C.CHANGELOG_DIALOG_WIDTH).toBe(750);
    expect(C.CHANNEL_VALUE_CUT).toBe(20);
    expect(C.CHANNEL_VALUE_CUT_WIDE).toBe(30);
    expect(C.RESULT_BODY_CUT).toBe(100);
    expect(C.IMPORT_PREVIEW_ROWS).toBe(50);
    expect(C.CUSTOM_MESSAGES_PURGE_MS).toBe(300000);
    expect(C.LOADER_SCRIPT_TIMEOUT_MS).toBe(120000);
    expect(C.SUBJECT_MAX).toBe(100);
  });
  it('mobile: 768 or below, or a mobile user agent', () => {
    expect(C.isMobile(768)).toBe(true);
    expect(C.isMobile(769)).toBe(false);
    expect(C.isMobile(1920, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(
      true,
    );
    expect(C.isMobile(1920, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120')).toBe(false);
  });
  it('batches ids by 500', () => {
    const ids = Array.from({ length: 1001 }, (_, i) => i);
    expect(C.batchIds(ids).map((b) => b.length)).toEqual([500, 500, 1]);
    expect(C.batchIds([])).toEqual([]);
    expect(() => C.batchIds([1], 0)).toThrow(RangeError);
  });
  it('session token: 20 characters', () => {
    let i = 0;
    const t = C.makeSessionToken(() => (i++ % 62) / 62);
    expect(t).toHaveLength(20);
    expect(t).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(C.makeSessionToken(() => 0.9999999)).toBe('9'.repeat(20));
  });
});
