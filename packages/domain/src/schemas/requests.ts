// Form-urlencoded request bodies (CONTRACT §1, §2): session, tokens, password reset, shares.
import { z } from 'zod';
import { zonedDate } from './common.ts';

const formInt = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, 'must be a positive integer')
  .transform(Number);

export const loginForm = z.object({
  email: z.string().trim().min(1, 'email is required').max(256),
  password: z.string().min(1, 'password is required').max(256),
  code: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, 'code must be digits')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export const tokenForm = z.object({
  expiration: zonedDate.optional().or(z.literal('').transform(() => undefined)),
  /** Rastro's web app: a remember-me token, revoked when the session it was issued in logs out. */
  rememberMe: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const revokeForm = z.object({ token: z.string().min(1, 'token is required').max(1024) });

export const passwordResetForm = z.object({ email: z.string().trim().min(1, 'email is required').max(256) });

export const passwordUpdateForm = z.object({
  token: z.string().min(1, 'token is required').max(1024),
  password: z.string().min(1, 'password is required').max(256),
});

export const shareDeviceForm = z.object({ deviceId: formInt, expiration: zonedDate });
export const shareGroupForm = z.object({ groupId: formInt, expiration: zonedDate });
