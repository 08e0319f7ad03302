// Errors answer as Traccar does (CONTRACT §1): plain text whose first line reads like
// "SecurityException: Write access denied", permission failures as 400, not 403.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind = 'IllegalArgumentException',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  /** The text body sent to the client. */
  get body(): string {
    return this.message ? `${this.kind}: ${this.message}` : '';
  }
}

/** 400 SecurityException: the caller may not do this (Traccar's permission failures). */
export const denied = (message = 'Write access denied') => new ApiError(400, message, 'SecurityException');
/** 400 IllegalArgumentException: bad input. */
export const badRequest = (message: string) => new ApiError(400, message, 'IllegalArgumentException');
export const unauthorized = (headers: Record<string, string> = {}) =>
  new ApiError(401, 'Unauthorized', 'WebApplicationException', headers);
export const notFound = (message = 'Not found') => new ApiError(404, message, 'WebApplicationException');
/** 503: the database cannot be reached now (issue #30); nothing was stored, the client may try again. */
export const unavailable = (message: string) =>
  new ApiError(503, message, 'WebApplicationException', { 'retry-after': '5' });
export const tooManyRequests = (seconds: number) =>
  new ApiError(429, `Too many login attempts, try again in ${seconds} s`, 'WebApplicationException', {
    'retry-after': String(seconds),
  });
