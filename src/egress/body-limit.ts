import { EgressError } from './errors';

/**
 * Trust the announced length, but verify the bytes: a Content-Length above the limit fails before
 * any of the body is read; a body without one (or lying in it) is cut off by `guardBody`.
 * For a compressed body the header counts compressed bytes, a lower bound of what decoding gives,
 * so refusing on it is still right.
 */
export function assertDeclaredLength(headers: { get(name: string): string | null }, maxBytes: number): void {
  const declared = Number(headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes, `announces ${declared} bytes`);
}

/**
 * Passes a body through, failing it with 'too_large' once more than `maxBytes` (decoded) bytes
 * have come, and cancelling the source so the connection stops downloading. Errors of the source
 * (an abort by the timeout, a reset) are handed to `mapError` so readers see EgressErrors.
 */
export function guardBody(source: ReadableStream<Uint8Array>, maxBytes: number, mapError: (err: unknown) => unknown): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read().catch((err: unknown) => {
        controller.error(mapError(err));
        return undefined;
      });
      if (chunk === undefined) return;
      if (chunk.done) {
        controller.close();
        return;
      }
      total += chunk.value.byteLength;
      if (total > maxBytes) {
        controller.error(tooLarge(maxBytes, 'sent more'));
        await reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Reads a guarded body to the end. */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

function tooLarge(maxBytes: number, what: string): EgressError {
  return new EgressError('too_large', `The response is larger than the limit of ${maxBytes} bytes (it ${what})`);
}
