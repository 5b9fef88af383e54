/**
 * What each surface of a tool set costs, measured on what toolc generates:
 * the `tools/list` answer a model reads when the server's tools are all
 * loaded, and the MCP Bundle's manifest.json (read by the host when it
 * installs the bundle, not by the model: its size is the download's
 * description, its tools list what the install screen shows). Tokens are
 * estimated one way for every surface (bench/lib/tokens.ts).
 *
 * Run: `npm run build && npx tsx bench/surfaces.ts` for the demo;
 * `--github` also imports GitHub's REST description (1,223 operations,
 * minutes of CPU) and measures it the same way. KEEP=1 keeps the folders.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ROOT, tempProject, toolc } from "./lib/project.js";
import { CHARS_PER_TOKEN, estimateTokens } from "./lib/tokens.js";

interface Sizes {
  readonly label: string;
  readonly tools: number;
  /** `{"tools":[...]}` as the server sends it (compact JSON): every tool's served definition. */
  readonly toolsList: string;
  readonly manifest: string;
}

const PACKAGE = { type: "module", private: true, name: "surfaces-bench", version: "1.0.0", description: "Surface sizes", author: "toolc bench" };

/** The generated folder's served tool definitions (schemas/<tool>.json `tool`, what tools/list serves) and its manifest. */
function sizesOf(label: string, dir: string): Sizes {
  const schemas = join(dir, "generated/schemas");
  const tools = readdirSync(schemas)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => (JSON.parse(readFileSync(join(schemas, f), "utf8")) as { tool: unknown }).tool);
  return { label, tools: tools.length, toolsList: JSON.stringify({ tools }), manifest: readFileSync(join(dir, "generated/manifest.json"), "utf8") };
}

function project(label: string, config: string): string {
  const dir = tempProject(label);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(PACKAGE)}\n`);
  writeFileSync(join(dir, "toolc.config.yaml"), config);
  return dir;
}

function demo(): { dir: string; sizes: Sizes } {
  const dir = project("surfaces-demo", "definitions: definitions\nout: generated\ntests: false\nmcp: { sdk: 2 }\nbundle: {}\n");
  cpSync(join(ROOT, "definitions"), join(dir, "definitions"), { recursive: true });
  toolc(dir, ["generate"]);
  return { dir, sizes: sizesOf("demo", dir) };
}

function github(): { dir: string; sizes: Sizes } {
  const dir = project("surfaces-github", "definitions: definitions\nout: generated\ntests: false\nmcp: { sdk: 2 }\n");
  const spec = join(dir, "github.json");
  writeFileSync(spec, gunzipSync(readFileSync(join(ROOT, "test/import/openapi/fixtures/github/api.github.com.json.gz"))));
  toolc(dir, ["import", "openapi", spec]);
  // The import's handlers read GitHub's credentials: the bundle asks for them.
  writeFileSync(
    join(dir, "toolc.config.yaml"),
    "definitions: definitions\nout: generated\ntests: false\nmcp: { sdk: 2 }\nbundle: { credentials: openapi-handlers.ts }\n",
  );
  toolc(dir, ["generate"]);
  return { dir, sizes: sizesOf("GitHub", dir) };
}

const kb = (text: string): string => `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB`;
const tokens = (text: string): string => estimateTokens(text).toLocaleString("en-US");

const runs = [demo(), ...(process.argv.includes("--github") ? [github()] : [])];
console.log(`Tokens estimated as characters / ${CHARS_PER_TOKEN}, rounded up.\n`);
console.log("| tool set | tools | tools/list (model context) | est. tokens | manifest.json (install time) | est. tokens |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const { sizes } of runs)
  console.log(`| ${sizes.label} | ${sizes.tools} | ${kb(sizes.toolsList)} | ${tokens(sizes.toolsList)} | ${kb(sizes.manifest)} | ${tokens(sizes.manifest)} |`);
if (process.env.KEEP === undefined) for (const { dir } of runs) rmSync(dir, { recursive: true, force: true });
else for (const { dir } of runs) console.log(`kept ${dir}`);
