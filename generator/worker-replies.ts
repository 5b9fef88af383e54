/**
 * Requests posted to worker threads and waiting for their replies, by id.
 * The first failure (a worker's error or exit) rejects every pending request
 * and every later one, so a run stops on it instead of waiting forever. Used
 * by the compile workers (pipeline/worker-pool.ts).
 */
export class PendingReplies<T> {
  readonly #pending = new Map<number, { resolve(value: T): void; reject(error: Error): void }>();
  #nextId = 0;
  #failure: Error | undefined;

  /** The reply to a new request: `post` sends it with its id, unless a failure came first, which rejects it. */
  open(post: (id: number) => void): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      post(id);
    });
  }

  /** Settles request `id` with its reply; a reply to a request no longer pending is dropped. */
  settle(id: number, reply: { readonly value: T } | { readonly error: Error }): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if ("error" in reply) pending.reject(reply.error);
    else pending.resolve(reply.value);
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
