// Form checks of SPEC §5 for the sign-in screens, through the domain's zod schemas. The login family returns the
// SPEC §8 catalogue code (the schema's key without its 'loginErrors.' prefix) or null.
import {
  fieldErrors,
  firstErrorKey,
  loginSchema,
  newPasswordSchema,
  recoverSchema,
  tokenLoginSchema,
  userFormSchema,
} from '@rastro/domain';

const code = (key: string | null) => (key ? key.replace(/^loginErrors\./, '') : null);

export function checkLogin(v: { email: string; password: string }): string | null {
  return code(firstErrorKey(loginSchema.safeParse(v)));
}

export function checkRecover(v: { email: string }): string | null {
  return code(firstErrorKey(recoverSchema.safeParse(v)));
}

/** Only the token part of the new-password form (the password rule is shown on its field). */
export function checkNewPassword(v: { token: string }): string | null {
  return code(firstErrorKey(newPasswordSchema.pick({ token: true }).safeParse(v)));
}

export function checkTokenLogin(v: { token: string }): string | null {
  return code(firstErrorKey(tokenLoginSchema.safeParse(v)));
}

/** Registration: the SPEC §5 user form. Field ⇒ message key (common namespace); confirm = confirmPassword. */
export function checkRegistration(v: {
  name: string;
  email: string;
  password: string;
  confirm: string;
}): Record<string, string> {
  const r = userFormSchema('create').safeParse({
    name: v.name,
    email: v.email,
    password: v.password,
    confirmPassword: v.confirm,
  });
  if (r.success) return {};
  const errors = fieldErrors(r.error);
  const out: Record<string, string> = {};
  for (const [k, msg] of Object.entries(errors)) out[k === 'confirmPassword' ? 'confirm' : k] = msg;
  return out;
}
