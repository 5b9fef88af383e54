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

/** Formats the files that ask for it; Ajv's JS is left alone (prettier on it costs far more than it gives). */
export async function formatFiles(files: readonly EmittedFile[], outDir: string): Promise<EmittedFile[]> {
  const options = (await prettier.resolveConfig(join(outDir, "index.ts"), { editorconfig: true })) ?? {};
  return Promise.all(
    files.map(async (file) => {
      const parser = parserFor(file.path);
      if (!file.format || parser === undefined) return file;
      const text = await prettier.format(file.text, { ...options, parser, filepath: join(outDir, file.path) });
      return { ...file, text };
    }),
  );
}
