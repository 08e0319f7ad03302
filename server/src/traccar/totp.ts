// TOTP (RFC 6238: 30 s steps, 6 digits, HMAC-SHA1, ±1 step tolerance), by otplib: the codes of two-factor sign-in
// (auth.ts's password login; users.ts's key generator).
// Keys are Base32 as authenticator apps and Traccar keep them. otplib refuses keys under 16 bytes by default (RFC
// 4226's advice); keys set by hand or by older servers may be 10 bytes (the common 16-character examples), so the
// floor is lowered to 10 rather than locking such accounts out.
import { createGuardrails, generateSecret, generateSync, verifySync } from 'otplib';

const TOTP_GUARDRAILS = createGuardrails({ MIN_SECRET_BYTES: 10 });

/** A new 20-byte key, Base32 (32 characters), as Traccar's generator makes them. */
export function generateTotpKey(): string {
  return generateSecret({ length: 20 });
}

export function totpCode(key: string, time = Date.now()): string {
  return generateSync({ secret: key, epoch: Math.floor(time / 1000), guardrails: TOTP_GUARDRAILS });
}

export function verifyTotp(key: string, code: string, time = Date.now()): boolean {
  if (!/^\d{1,6}$/.test(code.trim())) return false;
  try {
    return verifySync({
      secret: key,
      token: code.trim().padStart(6, '0'),
      epoch: Math.floor(time / 1000),
      epochTolerance: 30,
      guardrails: TOTP_GUARDRAILS,
    }).valid;
  } catch {
    // a malformed stored key never matches (and never answers 500)
    return false;
  }
}
