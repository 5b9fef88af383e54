/**
 * TypeScript to plain ES module JavaScript, one file at a time, with the real
 * TypeScript compiler (what `tsc` emits for each file under isolatedModules).
 * Tests that run generated validators in a plain `node` process use it for
 * the validator modules and the runtime helpers they import.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { VALIDATOR_RUNTIME_MODULES } from "../../generator/ajv.js";

const ROOT = new URL("../../", import.meta.url).pathname;

export function toJs(source: string, fileName = "module.ts"): string {
  const result = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  const errors = result.diagnostics ?? [];
  if (errors.length > 0) throw new Error(`${fileName}: ${ts.flattenDiagnosticMessageText(errors[0]?.messageText ?? "", "\n")}`);
  return result.outputText;
}

/**
 * Writes `runtime/<name>.js` under `dir` for every runtime module generated
 * validators import (`../runtime/formats.js` and the rest), compiled from
 * generator/runtime/*.ts.
 */
export function writeValidatorRuntime(dir: string): void {
  for (const specifier of VALIDATOR_RUNTIME_MODULES) {
    const name = specifier.replace(/^\.\.\/runtime\//, "").replace(/\.js$/, "");
    const out = join(dir, "runtime", `${name}.js`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, toJs(readFileSync(join(ROOT, "generator/runtime", `${name}.ts`), "utf8"), `${name}.ts`));
  }
}
