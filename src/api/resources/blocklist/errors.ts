import { BlocklistImportError } from '../../../blocklist/blocklist-import';
import { badRequest } from '../../http/errors';
import { toLeadHttpError } from '../leads/errors';

/**
 * Runs a blocklist service call, answering its known errors as HTTP errors: an empty CSV is a 400;
 * an upload over its limit (413, connection closed) or broken off by the client (400) is answered
 * as the lead import answers it, since the same upload helpers raise them.
 */
export async function answeringBlocklistErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BlocklistImportError) throw badRequest(err.message);
    throw toLeadHttpError(err) ?? err;
  }
}
