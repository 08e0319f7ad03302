// Form checks of SPEC §5 for the sign-in screens, through the domain's zod schemas. The login family returns the
// SPEC §8 catalogue code or null.
import {
  fieldErrors,
  firstErrorKey,
  loginSchema,
  newPasswordSchema,
  recoverSchema,
  tokenLoginSchema,
  userFormSchema,
} from '@rastro/domain';

/** The login family's forms (the login page's modes, and the token part of the new-password form: its password
 * rule is shown on its field). */
const SCHEMAS = {
  password: loginSchema,
  token: tokenLoginSchema,
  recover: recoverSchema,
  newPassword: newPasswordSchema.pick({ token: true }),
};

/** The form's first problem as its SPEC §8 catalogue code (the schema's key without 'loginErrors.'), or null. */
export function checkCode(form: keyof typeof SCHEMAS, v: Record<string, string>): string | null {
  return firstErrorKey(SCHEMAS[form].safeParse(v))?.replace(/^loginErrors\./, '') ?? null;
}

/** Registration: the SPEC §5 user form. Field ⇒ message key (common namespace). */
export function checkRegistration(v: Record<'name' | 'email' | 'password' | 'confirmPassword', string>) {
  const r = userFormSchema('create').safeParse(v);
  return r.success ? {} : fieldErrors(r.error);
}
