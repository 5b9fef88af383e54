/**
 * toolc's style, for the few texts prettier still prints: the handler
 * functions `toolc import openapi` writes (import/openapi/handlers.ts) and
 * the runtime's sources (`npm run format:runtime`), which a project gets
 * copied as they are. Everything `generate` writes is printed in this
 * layout by the emitters themselves, and tests hold it to prettier's.
 *
 * Output never follows the consumer's prettier config or .editorconfig: the
 * same inputs give the same bytes on every machine, and `toolc init` lists
 * the output folders in .prettierignore so a consumer's `prettier --check .`
 * leaves them alone.
 */
import type * as prettier from "prettier";

/** prettier's defaults, spelled out so that they are visible here and cannot shift with a consumer's config. */
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
