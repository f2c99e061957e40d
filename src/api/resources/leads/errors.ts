import { ProviderKeyRejected, ProviderRateLimited, ProviderRequestRejected, ProviderUnavailable } from '../../../leads/apollo/errors';
import { InvalidEnrichRequest } from '../../../leads/enrich-identity';
import { ImportTooLarge } from '../../../leads/import/byte-meter';
import { UploadAborted } from '../../../leads/import/upload-body';
import { ImportHeaderError } from '../../../leads/import/columns';
import { HttpError, badRequest, payloadTooLarge, serviceUnavailable } from '../../http/errors';

/**
 * What the lead endpoints answer for the lead services' errors. A provider that rate limits the
 * account's own key is a 503 with Retry-After, not a 429: on this API a 429 means *our* limit, and
 * a client that read it so would back off against RateLimit-* headers that show room to spare.
 */
export function toLeadHttpError(err: unknown): HttpError | undefined {
  if (err instanceof ProviderKeyRejected) return badRequest("The Apollo key was rejected: check the account's Apollo API key");
  if (err instanceof ProviderRequestRejected) return badRequest(err.message);
  if (err instanceof ProviderRateLimited) {
    return new HttpError(503, `${err.message}`, { 'Retry-After': String(err.retryAfterSeconds) });
  }
  if (err instanceof ProviderUnavailable) return serviceUnavailable(`The lead provider is unavailable: ${err.message}`);
  if (err instanceof InvalidEnrichRequest || err instanceof ImportHeaderError) return badRequest(err.message);
  if (err instanceof ImportTooLarge) {
    // The rest of the upload is not read: the connection closes after this answer.
    const tooLarge = payloadTooLarge(`${Math.round(err.maxBytes / (1024 * 1024))} MB`);
    return new HttpError(413, tooLarge.message, { Connection: 'close' });
  }
  // Nobody is left to read the answer; 400 keeps it out of the 5xx a real failure would be.
  if (err instanceof UploadAborted) return badRequest(err.message);
  return undefined;
}

/** Runs a lead service call, answering its known errors as HTTP errors. */
export async function answeringLeadErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toLeadHttpError(err) ?? err;
  }
}
