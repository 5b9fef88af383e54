/**
 * Tools compiled on worker threads. Every tool is compiled on its own
 * (compile-tool.ts), and the result is a pure function of its text, the
 * named types and the options, so which thread compiles it changes no byte.
 * Each worker loads a share of the texts in `classify` and later compiles
 * the tools it loaded, so no file is parsed twice.
 *
 * Workers run the built modules (dist/), next to this one. From the
 * TypeScript sources (as the tests import them) there is nothing to start,
 * and the compiler runs in this thread: the same code either way.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { DefinitionText } from "../load/files.js";
import { PendingReplies } from "../worker-replies.js";
import { LocalToolCompiler, type Classified, type CompileOptions, type ToolCompiler, type ToolOutcome } from "./compile-tool.js";
import { packedOutcome } from "./packed-files.js";

type RequestBody =
  | { readonly kind: "classify"; readonly texts: readonly DefinitionText[] }
  | { readonly kind: "compile"; readonly typeTexts: readonly DefinitionText[]; readonly tools: readonly DefinitionText[]; readonly options: CompileOptions };

export type WorkerRequest = RequestBody & { readonly id: number };

export type WorkerReply = { readonly id: number; readonly result: Classified | ToolOutcome[] } | { readonly id: number; readonly error: string };

const WORKER_URL = new URL("./worker-thread.js", import.meta.url);

class WorkerChannel {
  readonly #worker: Worker;
  readonly #replies = new PendingReplies<unknown>();

  constructor() {
    this.#worker = new Worker(WORKER_URL);
    this.#worker.on("message", (reply: WorkerReply) => {
      this.#replies.settle(reply.id, "error" in reply ? { error: new Error(`in a compile worker: ${reply.error}`) } : { value: reply.result });
    });
    this.#worker.on("error", (e) => this.#replies.fail(e));
    this.#worker.on("exit", (code) => this.#replies.fail(new Error(`a compile worker exited with code ${code}`)));
  }

  request<T>(request: RequestBody): Promise<T> {
    return this.#replies.open((id) => this.#worker.postMessage({ ...request, id })) as Promise<T>;
  }

  async close(): Promise<void> {
    this.#replies.clear();
    this.#worker.removeAllListeners("exit");
    await this.#worker.terminate();
  }
}

/** `items` cut into `parts` contiguous runs of near-equal length. */
function split<T>(items: readonly T[], parts: number): T[][] {
  const size = Math.ceil(items.length / parts);
  return Array.from({ length: parts }, (_, i) => items.slice(i * size, (i + 1) * size));
}

class WorkerToolCompiler implements ToolCompiler {
  readonly #channels: WorkerChannel[];
  /** Which worker loaded a source, so it also compiles it. */
  readonly #owner = new Map<string, number>();

  constructor(size: number) {
    this.#channels = Array.from({ length: size }, () => new WorkerChannel());
  }

  async classify(texts: readonly DefinitionText[]): Promise<Classified> {
    const shares = split(texts, this.#channels.length);
    shares.forEach((share, worker) => share.forEach((t) => this.#owner.set(t.source, worker)));
    const results = await Promise.all(shares.map((share, worker) => this.#channels[worker].request<Classified>({ kind: "classify", texts: share })));
    return { kinds: results.flatMap((r) => r.kinds), diagnostics: results.flatMap((r) => r.diagnostics) };
  }

  /**
   * Each worker takes small batches from its own queue (the tools it loaded),
   * and steals from the back of the longest other queue when its own is
   * empty, so a worker slowed by other load on the machine does not hold up
   * the run.
   */
  async compile(typeTexts: readonly DefinitionText[], tools: readonly DefinitionText[], options: CompileOptions): Promise<ToolOutcome[]> {
    const queues: { index: number; text: DefinitionText }[][] = this.#channels.map(() => []);
    tools.forEach((text, index) => {
      const owner = this.#owner.get(text.source) ?? index % this.#channels.length;
      queues[owner].push({ index, text });
    });
    const batch = Math.max(4, Math.min(32, Math.ceil(tools.length / (this.#channels.length * 8))));
    const out: ToolOutcome[] = new Array(tools.length);
    const take = (worker: number) => {
      if (queues[worker].length > 0) return queues[worker].splice(0, batch);
      const longest = queues.reduce((best, queue, i) => (queue.length > queues[best].length ? i : best), 0);
      return queues[longest].splice(Math.max(0, queues[longest].length - batch));
    };
    await Promise.all(
      this.#channels.map(async (channel, worker) => {
        for (let next = take(worker); next.length > 0; next = take(worker)) {
          const results = await channel.request<ToolOutcome[]>({ kind: "compile", typeTexts, tools: next.map((t) => t.text), options });
          // A worker's files arrive as plain texts (a structured clone reads each packed one): packed again here.
          next.forEach((t, i) => (out[t.index] = packedOutcome(results[i]!)));
        }
      }),
    );
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.#channels.map((c) => c.close()));
  }
}

/**
 * Worker threads to use: none unless TOOLC_WORKERS=n asks, and never from
 * the TypeScript sources or for a run with nothing to compile. Measured side by side on 1,000
 * tools on two shared cores, two workers took as long as this thread alone or longer
 * and half as much CPU time again (each worker loads and warms up Ajv and
 * the emitters on its own), so they are not the default.
 */
function workerCount(texts: number): number {
  if (!WORKER_URL.pathname.endsWith(".js") || !import.meta.url.endsWith(".js") || texts === 0) return 0;
  const asked = process.env.TOOLC_WORKERS;
  if (asked === undefined || !/^\d+$/.test(asked)) return 0;
  return Math.min(Number(asked), Math.max(1, availableParallelism()));
}

/** A compiler for a run that expects to load or compile about `texts` definition texts. */
export function openToolCompiler(texts: number): ToolCompiler {
  const size = workerCount(texts);
  return size > 0 ? new WorkerToolCompiler(size) : new LocalToolCompiler();
}
