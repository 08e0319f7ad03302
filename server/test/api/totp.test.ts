// TOTP through otplib (server/src/traccar/auth.ts): RFC 6238's SHA-1 test vectors, one step of tolerance either
// way, and keys that can never match (malformed, too short) refused instead of throwing.
import { describe, expect, it } from 'vitest';
import { generateTotpKey, totpCode, verifyTotp } from '../../src/traccar/totp.ts';

// "12345678901234567890" in Base32
const RFC_KEY = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('RFC 6238 appendix B (SHA-1, last six digits)', () => {
    expect(totpCode(RFC_KEY, 59_000)).toBe('287082');
    expect(totpCode(RFC_KEY, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(RFC_KEY, 1_234_567_890_000)).toBe('005924');
    expect(totpCode(RFC_KEY, 2_000_000_000_000)).toBe('279037');
  });

  it('accepts the code of the step before and after, not two steps away', () => {
    const now = 1_234_567_890_000;
    expect(verifyTotp(RFC_KEY, totpCode(RFC_KEY, now), now)).toBe(true);
    expect(verifyTotp(RFC_KEY, totpCode(RFC_KEY, now - 30_000), now)).toBe(true);
    expect(verifyTotp(RFC_KEY, totpCode(RFC_KEY, now + 30_000), now)).toBe(true);
    expect(verifyTotp(RFC_KEY, totpCode(RFC_KEY, now - 90_000), now)).toBe(false);
    expect(verifyTotp(RFC_KEY, '5924', now)).toBe(true); // leading zeros may be left out
  });

  it('new keys are 20 random bytes in Base32; bad keys and codes never match', () => {
    const key = generateTotpKey();
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpKey()).not.toBe(key);
    expect(verifyTotp(key, totpCode(key))).toBe(true);
    expect(verifyTotp('not base32!', '123456')).toBe(false);
    expect(verifyTotp('GEZDGNBV', '123456')).toBe(false);
    expect(verifyTotp(key, 'abcdef')).toBe(false);
    // a 10-byte key (the common 16-character examples) still works
    expect(verifyTotp('JBSWY3DPEHPK3PXP', totpCode('JBSWY3DPEHPK3PXP'))).toBe(true);
  });
});
