/**
 * Maps `items` through `fn` with at most `limit` calls under way at once, results in input order.
 * Verifying an import's thousands of domains at once would flood the resolver (and a small DNS
 * server's rate limit) and turn answers into timeouts.
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
