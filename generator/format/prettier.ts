/**
 * Formatting with prettier, in toolc's own fixed style. Output never follows
 * the consumer's prettier config or .editorconfig: the same inputs give the
 * same bytes on every machine, and `toolc init` lists the output folders in
 * .prettierignore so a consumer's `prettier --check .` leaves them alone.
 *
 * prettier is most of a large generate, and it is a pure function of
 * (version, options, path, text), so a large batch is spread over worker
 * threads, one per core (at most two): each file's text is exactly what
 * prettier in this thread would print. Small batches stay in this thread,
 * where starting workers would cost more than it saves.
 */
import type * as prettier from "prettier";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { EmittedFile } from "../ir.js";
import { PendingReplies } from "../worker-replies.js";

const PARSERS: Record<string, string> = { ts: "typescript", json: "json", md: "markdown" };

function parserFor(path: string): string | undefined {
  return PARSERS[path.slice(path.lastIndexOf(".") + 1)];
}

/**
 * toolc's style for every file it formats: prettier's defaults, spelled out
 * so that they are visible here and cannot shift with a consumer's config.
 */
export const FORMAT_OPTIONS: Readonly<prettier.Options> = Object.freeze({
  printWidth: 80,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
});

/**
 * A store of earlier results, keyed by the caller. prettier is a pure
 * function of (version, options, path, text), and on a large project it is
 * most of the run, so a text seen before is not formatted again.
 */
export interface FormatMemo {
  get(file: EmittedFile): string | undefined;
  set(file: EmittedFile, formatted: string): void;
}

/** Below this many files to format (50 tools' worth), workers cost more to start than they save. */
export const PARALLEL_MIN_FILES = 100;

/**
 * Formats files as they are handed in. `format` starts at once (in a worker
 * when the formatter is parallel), so a caller can keep emitting while
 * earlier files are formatted. `close` must be called when done.
 */
export interface Formatter {
  /** The file formatted; `memo`, when given, is asked first and told the result. */
  format(file: EmittedFile, memo?: FormatMemo): Promise<EmittedFile>;
  close(): Promise<void>;
}

export interface FormatterOptions {
  readonly options: prettier.Options;
  /** How many files the caller expects to hand in; a large batch uses worker threads. */
  readonly expectedFiles: number;
}

/**
 * The worker: formats one message at a time, in order, with the same
 * prettier module this thread loaded. Plain JS evaluated by Worker, so it
 * runs the same from dist/ and from the TS sources the tests import.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
// The CommonJS entry (what require.resolve finds) arrives as the default export.
const loaded = import(workerData.prettier).then((m) => (typeof m.format === "function" ? m : m.default));
let queue = Promise.resolve();
parentPort.on("message", ({ id, text, options }) => {
  queue = queue.then(async () => {
    try {
      const prettier = await loaded;
      parentPort.postMessage({ id, text: await prettier.format(text, options) });
    } catch (e) {
      parentPort.postMessage({ id, error: e instanceof Error ? String(e.stack || e.message) : String(e) });
    }
  });
});
`;

class WorkerPool {
  readonly #workers: { worker: Worker; load: number }[] = [];
  readonly #replies = new PendingReplies<string, { worker: number; size: number }>();

  constructor(size: number) {
    const prettierUrl = pathToFileURL(createRequire(import.meta.url).resolve("prettier")).href;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { prettier: prettierUrl } });
      worker.on("message", (message: { id: number; text?: string; error?: string }) => this.#settle(message));
      worker.on("error", (e) => this.#replies.fail(e));
      worker.on("exit", (code) => {
        if (this.#replies.size > 0) this.#replies.fail(new Error(`prettier worker exited with code ${code}`));
      });
      this.#workers.push({ worker, load: 0 });
    }
  }

  format(text: string, options: prettier.Options): Promise<string> {
    // Everything is posted at once (the caller may be busy emitting), so spread by size.
    let index = 0;
    for (let i = 1; i < this.#workers.length; i++) if (this.#workers[i].load < this.#workers[index].load) index = i;
    return this.#replies.open({ worker: index, size: text.length }, (id) => {
      this.#workers[index].load += text.length;
      this.#workers[index].worker.postMessage({ id, text, options });
    });
  }

  #settle(message: { id: number; text?: string; error?: string }): void {
    const settled = this.#replies.settle(message.id, message.text !== undefined ? { value: message.text } : { error: new Error(message.error ?? "prettier failed") });
    if (settled) this.#workers[settled.meta.worker].load -= settled.meta.size;
  }

  async close(): Promise<void> {
    // Whatever is still pending belongs to a run that has already failed elsewhere.
    this.#replies.clear();
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()));
  }
}

/** Whether options survive being posted to a worker unchanged (a plugin given as an object may not). */
function postable(options: prettier.Options): boolean {
  try {
    return JSON.stringify(structuredClone(options)) === JSON.stringify(options);
  } catch {
    return false;
  }
}

/** Workers to use: TOOLC_FORMAT_WORKERS=n decides (0: none); else two for a large batch on two or more cores. */
function poolSize(expectedFiles: number, options: prettier.Options): number {
  const forced = process.env.TOOLC_FORMAT_WORKERS;
  if (forced !== undefined && /^\d+$/.test(forced)) return postable(options) ? Number(forced) : 0;
  if (expectedFiles < PARALLEL_MIN_FILES || !postable(options)) return 0;
  return availableParallelism() < 2 ? 0 : 2;
}

export function openFormatter(settings: FormatterOptions): Formatter {
  const { options } = settings;
  const size = poolSize(settings.expectedFiles, options);
  const pool = size > 0 ? new WorkerPool(size) : undefined;
  return {
    format(file, memo) {
      const result = (async () => {
        const parser = parserFor(file.path);
        if (!file.format || parser === undefined) return file;
        const known = memo?.get(file);
        if (known !== undefined) return { ...file, text: known };
        const fileOptions = { ...options, parser, filepath: file.path };
        // Loaded on first use: most runs format nothing (toolc writes its own files in their final layout).
        const text = pool ? await pool.format(file.text, fileOptions) : await (await import("prettier")).format(file.text, fileOptions);
        memo?.set(file, text);
        return { ...file, text };
      })();
      // The caller awaits every result together; if it stops early (an emitter threw), a later failure here is not unhandled.
      result.catch(() => undefined);
      return result;
    },
    close: async () => pool?.close(),
  };
}

/** Formats the files that ask for it; Ajv's JS is left alone (prettier on it costs far more than it gives). */
export async function formatFiles(files: readonly EmittedFile[], resolved: prettier.Options = FORMAT_OPTIONS, memo?: FormatMemo): Promise<EmittedFile[]> {
  const formatter = openFormatter({ options: resolved, expectedFiles: files.length });
  try {
    return await Promise.all(files.map((file) => formatter.format(file, memo)));
  } finally {
    await formatter.close();
  }
}
