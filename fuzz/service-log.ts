/**
 * The unhandled errors the API logged (errorMiddleware's "unhandled error": each one was a 500),
 * each as its message and the first frame in the project's own code: a 500 the fuzzer saw is
 * then explained without opening the log. Repeated errors are listed once, with a count.
 */
export function serverErrorsIn(log: string): string[] {
  const counts = new Map<string, number>();
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { msg?: string; err?: { message?: string; stack?: string } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    // Only the API's: the worker logs its own failures (no network here) at error level too.
    if (entry.msg !== 'unhandled error') continue;
    const frame = (entry.err?.stack ?? '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('at ') && !l.includes('node_modules') && !l.includes('node:'));
    const key = `${entry.msg ?? 'error'}: ${entry.err?.message ?? ''}${frame ? ` (${frame})` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => (n > 1 ? `${key} [${n} times]` : key));
}
