/**
 * Errors a client may see. Every one becomes `{"error": message}` with its status; anything else
 * that escapes a handler is logged and answered as a bare 500, never with its message or stack.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const unauthorized = (message: string): HttpError => new HttpError(401, message);
export const notFound = (message = 'Not found'): HttpError => new HttpError(404, message);
export const methodNotAllowed = (allowed: string[]): HttpError =>
  new HttpError(405, 'Method not allowed', { Allow: allowed.join(', ') });
export const conflict = (message: string): HttpError => new HttpError(409, message);
export const payloadTooLarge = (limit: string): HttpError => new HttpError(413, `Request body is larger than ${limit}`);
export const unsupportedMediaType = (message: string): HttpError => new HttpError(415, message);
export const tooManyRequests = (retryAfterSeconds: number): HttpError =>
  new HttpError(429, 'Rate limit exceeded', { 'Retry-After': String(retryAfterSeconds) });
export const serviceUnavailable = (message: string): HttpError => new HttpError(503, message);
