/**
 * Formatting with prettier, using the consumer's own configuration when the
 * output folder sits inside a project that has one.
 */
import * as prettier from "prettier";
import { join } from "node:path";
import type { EmittedFile } from "../ir.js";

const PARSERS: Record<string, string> = { ts: "typescript", json: "json", md: "markdown" };

function parserFor(path: string): string | undefined {
  return PARSERS[path.slice(path.lastIndexOf(".") + 1)];
}

/** The consumer's prettier options for files in `outDir` (empty when there is no config). */
export async function resolveFormatOptions(outDir: string): Promise<prettier.Options> {
  // prettier remembers configs per process; a long-lived caller (watch mode,
  // tests) must see an edited .prettierrc, and the build cache keys on it.
  await prettier.clearConfigCache();
  return (await prettier.resolveConfig(join(outDir, "index.ts"), { editorconfig: true })) ?? {};
}

/** What formatting depends on besides the text: prettier's version and the resolved options. */
export function formatIdentity(options: prettier.Options): string {
  return JSON.stringify({ prettier: prettier.version, options });
}

/**
 * A store of earlier results, keyed by the caller. prettier is a pure
 * function of (version, options, path, text), and on a large project it is
 * most of the run, so a text seen before is not formatted again.
 */
export interface FormatMemo {
  get(file: EmittedFile): string | undefined;
  set(file: EmittedFile, formatted: string): void;
}

/** Formats the files that ask for it; Ajv's JS is left alone (prettier on it costs far more than it gives). */
export async function formatFiles(files: readonly EmittedFile[], outDir: string, resolved?: prettier.Options, memo?: FormatMemo): Promise<EmittedFile[]> {
  const options = resolved ?? (await resolveFormatOptions(outDir));
  return Promise.all(
    files.map(async (file) => {
      const parser = parserFor(file.path);
      if (!file.format || parser === undefined) return file;
      const known = memo?.get(file);
      if (known !== undefined) return { ...file, text: known };
      const text = await prettier.format(file.text, { ...options, parser, filepath: join(outDir, file.path) });
      memo?.set(file, text);
      return { ...file, text };
    }),
  );
}
