/** Polls `probe` every 200 ms until it returns a value, at most `ms`; then fails saying so. */
export async function eventually<T>(probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`condition not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
