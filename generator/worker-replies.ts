/**
 * Requests posted to worker threads and waiting for their replies, by id.
 * The first failure (a worker's error or exit) rejects every pending request
 * and every later one, so a run stops on it instead of waiting forever. Used
 * by prettier's pool (format/prettier.ts) and the compile workers
 * (pipeline/worker-pool.ts).
 */
export class PendingReplies<T, Meta = undefined> {
  readonly #pending = new Map<number, { resolve(value: T): void; reject(error: Error): void; meta: Meta }>();
  #nextId = 0;
  #failure: Error | undefined;

  get size(): number {
    return this.#pending.size;
  }

  /** The reply to a new request: `post` sends it with its id, unless a failure came first, which rejects it. */
  open(meta: Meta, post: (id: number) => void): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, meta });
      post(id);
    });
  }

  /** Settles request `id` with its reply; what was opened with it, or undefined when it is not pending. */
  settle(id: number, reply: { readonly value: T } | { readonly error: Error }): { meta: Meta } | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    if ("error" in reply) pending.reject(reply.error);
    else pending.resolve(reply.value);
    return { meta: pending.meta };
  }

  fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
  }

  /** Forgets what is pending: it belongs to a run that has already failed elsewhere, or is over. */
  clear(): void {
    this.#pending.clear();
  }
}
