interface LogEntry {
  msg?: string;
  requestId?: string;
  err?: { message?: string; stack?: string };
}

function unhandledEntries(log: string): LogEntry[] {
  const out: LogEntry[] = [];
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: LogEntry;
    try {
      entry = JSON.parse(line) as LogEntry;
    } catch {
      continue;
    }
    // Only the API's: the worker logs its own failures (no network here) at error level too.
    if (entry.msg === 'unhandled error') out.push(entry);
  }
  return out;
}

/** An unhandled error as its message and the first frame in the project's own code. */
function describe(entry: LogEntry): string {
  const frame = (entry.err?.stack ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith('at ') && !l.includes('node_modules') && !l.includes('node:'));
  return `${entry.msg ?? 'error'}: ${entry.err?.message ?? ''}${frame ? ` (${frame})` : ''}`;
}

/**
 * The unhandled errors the API logged (errorMiddleware's "unhandled error": each one was a 500),
 * each as its message and the first frame in the project's own code: a 500 the fuzzer saw is
 * then explained without opening the log. Repeated errors are listed once, with a count.
 */
export function serverErrorsIn(log: string): string[] {
  const counts = new Map<string, number>();
  for (const entry of unhandledEntries(log)) {
    const key = describe(entry);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => (n > 1 ? `${key} [${n} times]` : key));
}

/** The same errors by the request id they were logged with (the fuzzer sends its own ids). */
export function serverErrorsByRequestId(log: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of unhandledEntries(log)) if (entry.requestId !== undefined && !out.has(entry.requestId)) out.set(entry.requestId, describe(entry));
  return out;
}
