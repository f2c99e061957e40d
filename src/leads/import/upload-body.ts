import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/** The client went away before its upload was complete. */
export class UploadAborted extends Error {
  override readonly name = 'UploadAborted';
  constructor() {
    super('The upload was aborted before it was complete');
  }
}

/**
 * An HTTP request body as a stream the importer may abandon: when the import stops early (past
 * the size limit) only this stream is destroyed, not the request, so the 413 goes out on an intact
 * connection (closed after it, see the route's errors). A client that disconnects mid-upload fails
 * the import with UploadAborted, which rolls it back, rather than a stream error logged as a 500.
 */
export function uploadBody(req: IncomingMessage): Readable {
  const body = new PassThrough();
  req.pipe(body);
  req.once('close', () => {
    if (!req.complete) body.destroy(new UploadAborted());
  });
  req.once('error', () => body.destroy(new UploadAborted()));
  return body;
}
