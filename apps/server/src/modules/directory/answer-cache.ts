/**
 * Answers kept for a few seconds, at most `maxEntries` of them (the oldest go first). Promises are kept, so a
 * question asked again while the first is still on its way waits for that answer instead of asking twice; a
 * failed answer is dropped at once, so an outage is not remembered after the directory is back.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, { answer: Promise<T>; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, ask: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return ask();
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.answer;
    this.entries.delete(key);
    const answer = ask();
    const entry = { answer, at: this.now() };
    this.keep(key, entry);
    answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return answer;
  }

  /** Keeps an answer learnt on the way to another (a person found by a search, for the look-up by id that follows). */
  set(key: string, value: T): void {
    if (this.ttlMs > 0) this.keep(key, { answer: Promise.resolve(value), at: this.now() });
  }

  private keep(key: string, entry: { answer: Promise<T>; at: number }): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Map keeps insertion order: the first keys are the oldest.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
