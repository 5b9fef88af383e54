/**
 * Keeps README.md honest: its TypeScript blocks compile against
 * the generated API (through readme-snippets.ts, which must contain each of
 * them verbatim), its client config names files that exist, and the npm
 * scripts it tells people to run are the ones package.json defines.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installArgs, RUNTIME_FOLDERS } from "../../scripts/runtimes.js";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput } from "../typecheck/fixtures.js";
import { root } from "./helpers.js";

const doc = readFileSync(join(root, "README.md"), "utf8");
const snippets = readFileSync(join(root, "test/e2e/readme-snippets.ts"), "utf8");

function blocks(lang: string): string[] {
  return [...doc.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
}

/** A block's leading import statements (with the path as seen from test/e2e) and the code after them. */
function split(block: string): { imports: string[]; body: string } {
  const imports: string[] = [];
  let rest = block;
  for (let m = /^import [\s\S]*?;\n/.exec(rest); m !== null; m = /^import [\s\S]*?;\n/.exec(rest)) {
    imports.push(m[0].trim().replace('"./generated/', '"../../generated/'));
    rest = rest.slice(m[0].length).trimStart();
  }
  return { imports, body: rest.trim() };
}

describe("README.md", () => {
  it("has every TypeScript block in readme-snippets.ts, verbatim", () => {
    const ts = blocks("ts");
    expect(ts.length).toBeGreaterThanOrEqual(5);
    for (const block of ts) {
      const { imports, body } = split(block);
      for (const statement of imports) expect(snippets).toContain(statement);
      expect(imports.length + body.length).toBeGreaterThan(0);
      expect(snippets).toContain(body);
    }
  });

  it.each(TYPESCRIPTS)("has snippets that type-check against the generated API under --strict, with TypeScript $version", ({ version }) => {
    expect(tscOutput("strict", version, "readme")).toBe("");
  });

  it("has a client config that launches files that exist", () => {
    const [json] = blocks("json");
    const config = JSON.parse(json.replaceAll("/ABSOLUTE/PATH/TO/toolc", root.replace(/\/$/, ""))) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = config.mcpServers["toolc-demo"];
    expect(existsSync(server.command)).toBe(true);
    expect(server.args.every((a) => existsSync(a))).toBe(true);
  });

  it("tells people to run scripts that package.json defines", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.serve).toBe("tsx demo/serve.ts");
    expect(scripts["serve:http"]).toBe("tsx demo/serve.ts --http");
    expect(doc).toContain("npm run serve:http -- --port 3000");
    // The script installs each runtime folder (scripts/runtimes.ts lists them) from its own committed lockfile, and
    // the README names every folder where it says what `npm run runtimes` installs.
    expect(scripts.runtimes).toBe("tsx scripts/runtimes.ts");
    const folders = RUNTIME_FOLDERS.map((entry) => entry.folder);
    expect(folders).toEqual(expect.arrayContaining(["test/node-runtimes", "test/web-runtimes", "test/evals-runtimes"]));
    // No runtime folder with a lockfile is left out of the list.
    const onDisk = readdirSync(join(root, "test")).filter((name) => name.endsWith("-runtimes") && existsSync(join(root, "test", name, "package-lock.json")));
    expect([...folders].sort()).toEqual(onDisk.map((name) => `test/${name}`).sort());
    for (const entry of RUNTIME_FOLDERS) expect(installArgs(entry).join(" ")).toMatch(/^ci --prefix \S+ --no-audit --no-fund( --ignore-scripts)?$/);
    for (const folder of folders) {
      expect(existsSync(join(root, folder, "package-lock.json")), folder).toBe(true);
      expect(doc).toContain(folder);
    }
    expect(doc).toContain("npm run runtimes");
  });

  it("names Node.js binaries that npm run runtimes installed", () => {
    const paths = [...doc.matchAll(/test\/node-runtimes\/node_modules\/\S+\/bin\/node/g)].map((m) => m[0]);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(existsSync(join(root, path)), path).toBe(true);
  });
});
