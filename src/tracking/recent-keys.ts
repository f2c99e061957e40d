/**
 * A bounded set of recently seen keys, least recently used evicted first (a Map keeps insertion
 * order, so re-inserting a key moves it to the young end). The recorder uses it to skip pixel loads
 * and clicks it has already taken: a forgotten key only costs one more (deduplicated) journal line.
 */
export class RecentKeys {
  private readonly keys = new Map<string, true>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    if (!this.keys.has(key)) return false;
    this.keys.delete(key);
    this.keys.set(key, true);
    return true;
  }

  add(key: string): void {
    this.keys.delete(key);
    this.keys.set(key, true);
    if (this.keys.size > this.capacity) {
      const oldest = this.keys.keys().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
  }

  get size(): number {
    return this.keys.size;
  }
}
