import type { Context } from 'koa';
import { HttpError, payloadTooLarge } from './errors';

export function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Reads the request body into one Buffer, refusing (413) as soon as it passes `maxBytes` rather
 * than after buffering it all; a declared Content-Length over the limit is refused unread.
 */
export async function readRawBody(ctx: Context, maxBytes: number): Promise<Buffer> {
  const declared = ctx.request.length;
  if (declared !== undefined && declared > maxBytes) throw payloadTooLarge(formatLimit(maxBytes));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > maxBytes) throw payloadTooLarge(formatLimit(maxBytes));
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(400, 'The request body could not be read');
  }
  return Buffer.concat(chunks);
}
