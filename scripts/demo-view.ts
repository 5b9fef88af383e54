/**
 * The demo's view (MCP Apps) is written in TypeScript, definitions/views/
 * orders.ts, and served as HTML, definitions/views/orders.html (the file
 * get_order's `ui.source` names, which toolc embeds in the server). This
 * script compiles the one into the other's module <script>: TypeScript's
 * own transpiler, one file, no bundler (the view imports types only, so
 * nothing else has to be inlined). `npm run generate` runs it before toolc
 * generate; `--check` writes nothing and exits 1 when orders.html is stale.
 * test/apps/demo-view.test.ts type-checks orders.ts against the generated
 * wrapper and checks that orders.html is fresh.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const VIEW_SOURCE = join(ROOT, "definitions/views/orders.ts");
export const VIEW_HTML = join(ROOT, "definitions/views/orders.html");

const OPEN = '<script type="module">\n';
const CLOSE = "</script>";
const NOTICE = "// Compiled from orders.ts by `npm run generate` (scripts/demo-view.ts): edit orders.ts, not this script.\n";

/**
 * The view's TypeScript as the module script's JavaScript. An import left in
 * the output (a value import) would need a bundler, and the script cannot
 * hold `</script>`: both are errors naming the file.
 */
export function compileViewScript(source: string, fileName: string): string {
  const { outputText } = ts.transpileModule(source, {
    fileName,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
  });
  // A module whose imports were all types keeps an empty export to stay a module; a module script is one anyway.
  const script = outputText.replace(/\nexport \{\};\n$/, "\n");
  const line = script.split("\n").findIndex((text) => /^\s*(import|export)\b/.test(text));
  if (line !== -1)
    throw new Error(`${fileName}: the compiled view still imports or exports (line ${line + 1} of its output); a view without a bundler imports types only`);
  if (script.includes("</script")) throw new Error(`${fileName}: the compiled view contains "</script", which would end the HTML's <script> early`);
  return script;
}

/** `html` with its one module script's body replaced by `script`. */
export function withViewScript(html: string, script: string, htmlName: string): string {
  const start = html.indexOf(OPEN);
  const end = start === -1 ? -1 : html.indexOf(CLOSE, start);
  if (start === -1 || end === -1 || html.indexOf(OPEN, end) !== -1)
    throw new Error(`${htmlName}: expected exactly one ${OPEN.trim()} ... ${CLOSE}, the view's compiled script goes there`);
  return html.slice(0, start + OPEN.length) + NOTICE + script + html.slice(end);
}

/** orders.html as orders.ts compiles into it. */
export function buildDemoView(): string {
  const script = compileViewScript(readFileSync(VIEW_SOURCE, "utf8"), "definitions/views/orders.ts");
  return withViewScript(readFileSync(VIEW_HTML, "utf8"), script, "definitions/views/orders.html");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = buildDemoView();
  const stale = built !== readFileSync(VIEW_HTML, "utf8");
  if (process.argv.includes("--check")) {
    if (stale) console.error("definitions/views/orders.html is stale: run npm run generate (scripts/demo-view.ts)");
    process.exitCode = stale ? 1 : 0;
  } else if (stale) writeFileSync(VIEW_HTML, built);
}
