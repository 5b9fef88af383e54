/**
 * The catalog from the command line, in scratch projects: `toolc docs`,
 * `docs.out` in the config (generate writes the catalog, check fails when
 * the committed one is stale, --watch regenerates it), the changelog against
 * git refs, and the located errors of a bad setting.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watch } from "../../generator/commands/watch.js";
import { copyDemo, runCli, snapshotTree } from "../compiler/helpers.js";

const CONFIG = "tests: false\ndocs:\n  out: docs/catalog\n  title: Demo tools\n";

function demoWithDocs(config = CONFIG): string {
  const dir = copyDemo();
  writeFileSync(join(dir, "toolc.config.yaml"), config);
  return dir;
}

function git(dir: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "pipe" });
}

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

describe("docs.out: generate writes the catalog and check keeps it fresh", () => {
  it("fails check on a stale, edited, missing or foreign catalog file, and passes once generate ran", async () => {
    const dir = demoWithDocs();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(existsSync(join(dir, "docs/catalog/index.html"))).toBe(true);
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // A contract edited and not regenerated: its page is stale, with the generated code.
    edit(join(dir, "definitions/get_order.yaml"), "Look up one customer's orders.", "Look up the orders of one customer.");
    const stale = await runCli(dir, ["check"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("  changed: docs/catalog/tools/get_order.html\n");
    expect(stale.stderr).toContain("  changed: docs/catalog/llms.txt\n");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(readFileSync(join(dir, "docs/catalog/tools/get_order.md"), "utf8")).toContain("Look up the orders of one customer.");
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // Only the catalog's settings changed: only catalog files differ.
    edit(join(dir, "toolc.config.yaml"), "title: Demo tools", "title: Other tools");
    const retitled = await runCli(dir, ["check"]);
    expect(retitled.code).toBe(1);
    expect(retitled.stderr.split("\n").filter((l) => l.startsWith("  changed: ")).every((l) => l.startsWith("  changed: docs/catalog/"))).toBe(true);
    expect((await runCli(dir, ["generate"])).code).toBe(0);

    // A hand edit, a deleted page, a file toolc did not write.
    writeFileSync(join(dir, "docs/catalog/types.md"), "mine\n");
    rmSync(join(dir, "docs/catalog/tools/delete_customer.html"));
    writeFileSync(join(dir, "docs/catalog/notes.txt"), "hello\n");
    const tampered = await runCli(dir, ["check", "--diff"]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("  changed: docs/catalog/types.md\n");
    expect(tampered.stderr).toContain("  missing: docs/catalog/tools/delete_customer.html\n");
    expect(tampered.stderr).toContain("  foreign: docs/catalog/notes.txt\n");
    expect(tampered.stderr).toContain("1 file in the catalog folder was not written by toolc");
    expect(tampered.stdout).toContain("--- a/docs/catalog/types.md\n+++ b/docs/catalog/types.md\n");
    rmSync(join(dir, "docs/catalog/notes.txt"));
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect((await runCli(dir, ["check"])).code).toBe(0);
  });

  it("removes a removed tool's pages, and writes nothing when a contract is broken", async () => {
    const dir = demoWithDocs();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    rmSync(join(dir, "definitions/delete_customer.yaml"));
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(existsSync(join(dir, "docs/catalog/tools/delete_customer.html"))).toBe(false);
    expect(existsSync(join(dir, "docs/catalog/tools/delete_customer.md"))).toBe(false);
    const before = snapshotTree(join(dir, "docs/catalog"));
    edit(join(dir, "definitions/get_order.yaml"), "effect: read", "effect: reed");
    const broken = await runCli(dir, ["generate"]);
    expect(broken.code).toBe(1);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(before);
  });

  it("writes the same catalog as `toolc docs`, whichever folder the command runs in", async () => {
    const dir = demoWithDocs();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const fromGenerate = snapshotTree(join(dir, "docs/catalog"));
    const docs = await runCli(dir, ["docs", "--out", "elsewhere"]);
    expect(docs.code).toBe(0);
    expect(docs.stdout).toBe("toolc docs: 4 tools; 13 files written, 0 unchanged, 0 removed, in elsewhere\n");
    expect(docs.stderr).toContain("set `docs: { out: elsewhere }` in toolc.config.yaml");
    expect(snapshotTree(join(dir, "elsewhere"))).toEqual(fromGenerate);
    expect((await runCli(join(dir, "definitions"), ["check", "--config", "../toolc.config.yaml"])).code).toBe(0);
    const again = await runCli(dir, ["docs", "--out", "elsewhere"]);
    expect(again.stdout).toBe("toolc docs: 4 tools; 0 files written, 13 unchanged, 0 removed, in elsewhere\n");
  });

  it("refuses a catalog folder that is the project, the output folder or inside the definitions, located at the key", async () => {
    for (const [out, col] of [[".", 8], ["generated", 8], ["definitions/docs", 8]] as const) {
      const dir = demoWithDocs(`docs:\n  out: ${out}\n`);
      const result = await runCli(dir, ["generate"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`toolc.config.yaml:2:${col}: error TC003: \`docs.out\` must be a folder of its own inside the project`);
    }
    const typo = demoWithDocs("docs:\n  out: docs/catalog\n  titel: x\n");
    expect((await runCli(typo, ["generate"])).stderr).toContain("toolc.config.yaml:3:3: error TC002: unknown key `titel` in `docs`; did you mean `title`?");
    const unset = demoWithDocs("docs:\n  title: x\n");
    expect((await runCli(unset, ["generate"])).stderr).toContain("toolc.config.yaml:2:3: error TC003: `docs` must be a map with `out` (the catalog's folder), and optionally `title` and `changelog` (a list of git:REF or folders)");
  });
});

describe("toolc docs on the command line", () => {
  it("is in toolc --help, has its own --help, and refuses bad usage", async () => {
    const dir = copyDemo();
    expect((await runCli(dir, ["--help"])).stdout).toContain("toolc docs [--out DIR] [--base BASE]... [--title TEXT]");
    const help = await runCli(dir, ["docs", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of ["--out DIR", "--base BASE", "--title TEXT", "--definitions DIR", "--config FILE"]) expect(help.stdout).toContain(flag);
    expect((await runCli(dir, ["docs", "--frobnicate"])).code).toBe(2);
    expect((await runCli(dir, ["docs", "--title", ""])).code).toBe(2);
    const clash = await runCli(dir, ["docs", "--out", "generated"]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("`docs.out` must be a folder of its own inside the project, not generated");
  });
});

describe("the changelog against git refs", () => {
  it("lists the changes since each base, per tool, and fails with a located error on a ref that is not there", async () => {
    const dir = demoWithDocs();
    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "v1");
    git(dir, "tag", "v1");
    edit(join(dir, "definitions/get_order.yaml"), "minLength: 1, maxLength: 64", "minLength: 1, maxLength: 32");
    git(dir, "commit", "-qam", "v2");
    git(dir, "tag", "v2");
    edit(join(dir, "definitions/search_orders.yaml"), "maximum: 100", "maximum: 50");
    writeFileSync(join(dir, "toolc.config.yaml"), `${CONFIG}  changelog: [git:v2, git:v1]\n`);
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const changelog = readFileSync(join(dir, "docs/catalog/changelog.md"), "utf8");
    // Each release lists what toolc diff reports between its two sides, in toolc diff's words.
    const reported = JSON.parse((await runCli(dir, ["diff", "--base", "git:v2", "--format", "json"])).stdout) as { changes: { rule: string; level: string; message: string; field: string; line: number }[] };
    const [limit] = reported.changes;
    expect(limit).toMatchObject({ rule: "bound-tightened", level: "breaking", field: "input.limit" });
    const since = changelog.slice(changelog.indexOf("## Since v2"), changelog.indexOf("## v2 (since v1)"));
    expect(since).toContain(`| **⚠ breaking** | ${limit?.message} | \`input.limit\` | \`bound-tightened\` | \`definitions/search_orders.yaml:${limit?.line}\` |`);
    expect(since).not.toContain("get_order");
    const older = changelog.slice(changelog.indexOf("## v2 (since v1)"));
    expect(older).toMatch(/\| \*\*⚠ breaking\*\* \| [^|]*64[^|]*32[^|]* \| `input\.customerId` \| `bound-tightened` \| `definitions\/get_order\.yaml:\d+` \|/);
    expect(older).toContain("Breaking without a version bump: `get_order`.");
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // A moved tag changes the catalog; check sees it without a generate.
    git(dir, "tag", "-f", "v2", "v1");
    const moved = await runCli(dir, ["check"]);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain("  changed: docs/catalog/changelog.html\n");

    writeFileSync(join(dir, "toolc.config.yaml"), `${CONFIG}  changelog:\n    - git:v2\n    - git:no-such-tag\n`);
    const bad = await runCli(dir, ["generate"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('toolc.config.yaml:7:7: error TC090: cannot read the definitions folder (definitions) at git ref "no-such-tag"');
    expect(bad.stderr).toContain("nothing was written");
  });

  it("says so when a base does not compile with this toolc, and still writes the rest", async () => {
    const dir = demoWithDocs();
    git(dir, "init", "-q");
    edit(join(dir, "definitions/get_order.yaml"), "effect: read", "effect: reed");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "broken");
    edit(join(dir, "definitions/get_order.yaml"), "effect: reed", "effect: read");
    const result = await runCli(dir, ["docs", "--base", "git:HEAD"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning TC090: the contracts at "git:HEAD" do not compile with this toolc (1 error; `toolc diff --base git:HEAD` shows them)');
    expect(readFileSync(join(dir, "docs/catalog/changelog.md"), "utf8")).toContain("**not compared** The contracts at HEAD do not compile with this toolc");
  });
});

describe("generate --watch", () => {
  it("regenerates the catalog on a save", { timeout: 120_000 }, async () => {
    const dir = demoWithDocs();
    const stop = new AbortController();
    let out = "";
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (out += t), cwd: dir };
    const watching = watch({}, io, stop.signal);
    const until = async (test: () => boolean): Promise<void> => {
      for (let waited = 0; !test(); waited += 50) {
        if (waited > 60_000) throw new Error(`never happened:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const page = join(dir, "docs/catalog/tools/get_order.html");
    await until(() => out.includes("toolc: watching"));
    expect(readFileSync(page, "utf8")).toContain("Look up one customer&#39;s orders.");
    edit(join(dir, "definitions/get_order.yaml"), "Look up one customer's orders.", "Look up the orders of one customer.");
    await until(() => readFileSync(page, "utf8").includes("Look up the orders of one customer."));
    stop.abort();
    expect(await watching).toBe(0);
  });
});
