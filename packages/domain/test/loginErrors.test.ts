import { describe, expect, it } from 'vitest';
import { LOGIN_ERROR_CODES, codeFromText, parseLoginError } from '../src/loginErrors.ts';
import { isMessageKey } from '../src/messages.ts';

describe('login error codes (SPEC §8)', () => {
  it('every code has a message key', () => {
    for (const c of LOGIN_ERROR_CODES) expect(isMessageKey(`loginErrors.${c}`), c).toBe(true);
  });

  it('reads the text before " - ", uppercased with underscores', () => {
    expect(codeFromText('Account is suspended - contact support')).toBe('ACCOUNT_IS_SUSPENDED');
    expect(codeFromText('java.lang.SecurityException: Write access denied\n\tat x')).toBe(
      'WRITE_ACCESS_DENIED',
    );
    expect(codeFromText('USER_DEVICE_LIMIT_REACHED - 10')).toBe('USER_DEVICE_LIMIT_REACHED');
    expect(codeFromText('action_cancel')).toBe('action_cancel');
    expect(codeFromText('')).toBe('');
  });

  it('no response ⇒ CONNECTION_ERROR', () => {
    expect(parseLoginError(null)).toEqual({ code: 'CONNECTION_ERROR', key: 'loginErrors.CONNECTION_ERROR' });
  });

  it('HTTP 500 ⇒ ACCOUNT_IS_BLOCKED', () => {
    expect(parseLoginError({ status: 500, body: 'whatever' }).code).toBe('ACCOUNT_IS_BLOCKED');
  });

  it('error field gives code, trustAvailable and invoices', () => {
    const r = parseLoginError({
      status: 400,
      body: { error: 'ACCOUNT_IS_SUSPENDED_TRUST', trustAvailable: true, invoices: [{ id: 1 }] },
    });
    expect(r).toEqual({
      code: 'ACCOUNT_IS_SUSPENDED_TRUST',
      key: 'loginErrors.ACCOUNT_IS_SUSPENDED_TRUST',
      trustAvailable: true,
      invoices: [{ id: 1 }],
    });
    expect(parseLoginError({ status: 400, body: { error: 'weird thing' } })).toMatchObject({
      code: 'UNKNOWN_ERROR',
      raw: 'WEIRD_THING',
    });
  });

  it('text codes, 401, and the fallbacks', () => {
    expect(parseLoginError({ status: 400, body: 'Account is disabled - call' }).code).toBe(
      'ACCOUNT_IS_DISABLED',
    );
    expect(parseLoginError({ status: 401, body: '' }).code).toBe('HTTP_401_UNAUTHORIZED');
    expect(parseLoginError({ status: 401, body: 'INVALID_SHARE - expired' }).code).toBe('INVALID_SHARE');
    expect(parseLoginError({ status: 400, body: 'Something odd' })).toMatchObject({
      code: 'UNKNOWN_ERROR',
      raw: 'SOMETHING_ODD',
    });
    expect(parseLoginError({ status: 200, body: {} }, 'process').code).toBe('LOGIN_PROCESS_ERROR');
    expect(parseLoginError(null, 'process').code).toBe('LOGIN_PROCESS_ERROR');
  });
});
