/**
 * `toolc diff` as a command: git bases, output formats, usage errors, broken
 * definitions, and the `diff:` section of toolc.config.yaml.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { applyEdits, DEMO, diffEdits, pairFolder, runDiff, type Edits } from "./helpers.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" } });
}

/** A real repository with the demo committed under `<sub>/definitions`. */
function repository(sub = ""): { root: string; work: string } {
  const root = mkdtempSync(join(tmpdir(), "toolc-diff-git-"));
  roots.push(root);
  const work = join(root, sub);
  mkdirSync(work, { recursive: true });
  cpSync(DEMO, join(work, "definitions"), { recursive: true });
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "contracts");
  return { root, work };
}

const BREAKING_EDIT: Edits = { "get_order.yaml": [["minLength: 1", "minLength: 3"]] };

describe("--base git:REF", () => {
  it("reads the base from git objects inside a repository: git:HEAD against the working tree", async () => {
    const { work } = repository();
    expect((await runDiff(work, ["--base", "git:HEAD"])).out).toBe("toolc diff: no changes\n");
    applyEdits(join(work, "definitions"), BREAKING_EDIT);
    const run = await runDiff(work, ["--base", "git:HEAD"]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^definitions\/get_order\.yaml:12:\d+: breaking bound-tightened: get_order input\.customerId: minLength 1 → 3$/m);
  });

  it("works from a subfolder of the repository, and a removal is located in the base file", async () => {
    const { root, work } = repository("packages/api");
    applyEdits(join(work, "definitions"), { "delete_customer.yaml": null });
    git(root, "add", "-A");
    git(root, "commit", "-qm", "drop delete_customer");
    const run = await runDiff(work, ["--base", "git:HEAD~1", "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out) as { changes: { rule: string; file: string; line: number }[] };
    expect(report.changes).toEqual([expect.objectContaining({ rule: "tool-removed", file: "definitions/delete_customer.yaml", line: 2 })]);
  });

  it("an unknown ref is a usage error (exit 2)", async () => {
    const { work } = repository();
    const run = await runDiff(work, ["--base", "git:no-such-branch"]);
    expect(run.code).toBe(2);
    // The ref is what is missing: no "do not compile", no echo of the git command toolc ran.
    expect(run.err).toBe('.:1:1: error TC005: cannot read git ref "no-such-branch": no branch, tag or commit of that name in this repository\n');
  });
});

describe("--base git:REF with the base commit's own config", () => {
  const config = (defaultScopes: string): string =>
    ["mcp: { sdk: 2 }", "auth:", "  resource: https://mcp.example.com/mcp", "  authorizationServers: [https://auth.example.com/]", `  defaultScopes: ${defaultScopes}`, ""].join("\n");
  const TOOLS = ["create_refund", "delete_customer", "get_order", "search_orders"];
  const scopeChanges = (out: string): string[] =>
    (JSON.parse(out) as { changes: { tool: string; rule: string; level: string; message: string }[] }).changes.map((c) => `${c.tool} ${c.rule} ${c.level}: ${c.message}`).sort();
  const added = (scope: string): string[] => TOOLS.map((t) => `${t} scope-added breaking: scope ${scope} now required: callers whose tokens lack it are refused (403 insufficient_scope)`);

  it("a scope added only through auth.defaultScopes is scope-added, breaking, for every tool without scopes of its own", async () => {
    const { root, work } = repository("packages/api");
    writeFileSync(join(work, "toolc.config.yaml"), config("[mcp:tools]"));
    git(root, "add", "-A");
    git(root, "commit", "-qm", "auth");
    writeFileSync(join(work, "toolc.config.yaml"), config("[mcp:tools, orders:write]"));
    const run = await runDiff(work, ["--base", "git:HEAD", "--format", "json"]);
    expect(run.code).toBe(1);
    expect(scopeChanges(run.out)).toEqual(added("orders:write"));
    // A folder base has no commit to read a config from: both sides get the current one (docs/evolution.md).
    cpSync(join(work, "definitions"), join(work, "v1"), { recursive: true });
    expect(scopeChanges((await runDiff(work, ["--base", "v1", "--format", "json"])).out)).toEqual([]);
  });

  it("finds the base's config as generate does (upwards from the working folder, or --config's path), and a commit without one has no default", async () => {
    const { root, work } = repository("packages/api");
    // At the root, so its paths are the root's: the definitions are given on the command line.
    const args = ["--base", "git:HEAD", "--definitions", "definitions", "--format", "json"];
    writeFileSync(join(root, "toolc.config.yaml"), config("[mcp:tools]"));
    expect(scopeChanges((await runDiff(work, args)).out)).toEqual(added("mcp:tools"));
    git(root, "add", "-A");
    git(root, "commit", "-qm", "auth");
    writeFileSync(join(root, "toolc.config.yaml"), config("[orders:read]"));
    expect(scopeChanges((await runDiff(work, args)).out)).toEqual(
      [...added("orders:read"), ...TOOLS.map((t) => `${t} scope-removed info: scope mcp:tools no longer required`)].sort(),
    );
    expect(scopeChanges((await runDiff(join(root, "packages"), ["--base", "git:HEAD", "--definitions", "api/definitions", "--config", "../toolc.config.yaml", "--format", "json"])).out)).toEqual(
      [...added("orders:read"), ...TOOLS.map((t) => `${t} scope-removed info: scope mcp:tools no longer required`)].sort(),
    );
  });

  it("reads the base with its own commit's `loading:` and `rateLimit` defaults: unchanged, nothing is reported; changed, each tool they reach", async () => {
    const { root, work } = repository();
    const defaults = (loading: string, calls: number): string => `loading: { default: ${loading} }\nrateLimit: { calls: ${calls}, windowSeconds: 60 }\n`;
    writeFileSync(join(work, "toolc.config.yaml"), defaults("deferred", 20));
    git(root, "add", "-A");
    git(root, "commit", "-qm", "defaults");
    const changes = async (): Promise<string[]> =>
      (JSON.parse((await runDiff(work, ["--base", "git:HEAD", "--format", "json"])).out) as { changes: { tool: string; rule: string; level: string }[] }).changes
        .filter((c) => c.rule.startsWith("rate-limit-") || c.rule === "loading-changed")
        .map((c) => `${c.tool} ${c.rule} ${c.level}`)
        .sort();
    expect(await changes()).toEqual([]);
    writeFileSync(join(work, "toolc.config.yaml"), defaults("eager", 10));
    // search_orders declares `loading: deferred` itself; every tool gets the config's limit.
    expect(await changes()).toEqual(
      TOOLS.flatMap((t) => [...(t === "search_orders" ? [] : [`${t} loading-changed info`]), `${t} rate-limit-tightened warning`]),
    );
  });

  it("a base config that does not load stops the diff (exit 2), located in the commit", async () => {
    const { root, work } = repository();
    writeFileSync(join(work, "toolc.config.yaml"), "auth: { defaultScope: [x] }\n");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "broken config");
    writeFileSync(join(work, "toolc.config.yaml"), config("[mcp:tools]"));
    const run = await runDiff(work, ["--base", "git:HEAD"]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^HEAD:toolc\.config\.yaml:1:\d+: error TC\d+: unknown key `defaultScope` in `auth`/m);
  });
});

describe("formats", () => {
  it("--format json is valid JSON with every change's location, level, rule, tool and direction", async () => {
    const run = await diffEdits({ ...BREAKING_EDIT, "search_orders.yaml": [["maximum: 100", "maximum: 200"]] });
    expect(run.report.summary).toEqual({ breaking: 1, undecided: 0, warning: 0, info: 1 });
    expect(run.report.changes[0]).toEqual({
      tool: "get_order", direction: "input",
      file: "head/get_order.yaml", line: 12, col: expect.any(Number), level: "breaking", rule: "bound-tightened", message: "minLength 1 → 3",
      field: "input.customerId", affects: [{ tool: "get_order", direction: "input", level: "breaking" }],
    });
  });

  it("--format github writes workflow annotations; --format markdown a table", async () => {
    const root = pairFolder(BREAKING_EDIT);
    roots.push(root);
    const github = await runDiff(root, ["--base", "base", "--definitions", "head", "--format", "github"]);
    expect(github.out.split("\n")[0]).toMatch(/^::error file=head\/get_order\.yaml,line=12,col=\d+,title=breaking%3A bound-tightened::get_order input\.customerId: minLength 1 → 3$/);
    const markdown = await runDiff(root, ["--base", "base", "--definitions", "head", "--format", "markdown"]);
    expect(markdown.out).toContain("| level | rule | where | change | at |\n| --- | --- | --- | --- | --- |\n| breaking | `bound-tightened` | get\\_order input.customerId | minLength 1 → 3 | head/get\\_order.yaml:12 |");
    expect(markdown.code).toBe(1);
  });
});

describe("usage and broken definitions exit 2", () => {
  it("refuses a missing --base, an unknown format and a missing folder", async () => {
    const root = pairFolder({});
    roots.push(root);
    expect((await runDiff(root, [])).code).toBe(2);
    expect((await runDiff(root, ["--base", "base", "--definitions", "head", "--format", "yaml"])).code).toBe(2);
    const missing = await runDiff(root, ["--base", "nowhere", "--definitions", "head"]);
    expect(missing).toMatchObject({ code: 2, out: "" });
    expect(missing.err).toContain("nowhere");
  });

  it("prints the located errors of definitions that do not compile", async () => {
    const run = await diffEdits({ "get_order.yaml": [["effect: read", "effect: reed"]] });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^head\/get_order\.yaml:6:9: error TC003: /m);
  });

  it("refuses, located, what the targets' lints refuse (Target.lint), on either side: a named type with the name of a tool's generated type", async () => {
    const clash: Edits = { "types.yaml": [["types:\n", "types:\n  GetOrderOutput: { type: integer }\n"]] };
    const head = await diffEdits(clash);
    expect(head.code).toBe(2);
    expect(head.err).toMatch(/^head\/types\.yaml:3:3: error TC024: type `GetOrderOutput` has the name of tool `get_order`'s output type in the generated index; rename the type$/m);
    expect(head.err).toContain("toolc diff: the head contracts do not compile");
    const base = await diffEdits({}, [], clash);
    expect(base.code).toBe(2);
    expect(base.err).toMatch(/^base\/types\.yaml:3:3: error TC024: /m);
  });

  it("is dispatched by `toolc diff` and listed in `toolc --help`", async () => {
    let out = "";
    expect(await main(["--help"], { out: (t) => void (out += t), err: () => undefined })).toBe(0);
    expect(out).toContain("toolc diff --base BASE");
    let err = "";
    expect(await main(["diff"], { out: () => undefined, err: (t) => void (err += t) })).toBe(2);
    expect(err).toContain("--base is required");
  });
});

describe("the diff section of toolc.config.yaml", () => {
  async function withConfig(config: string, edits: Edits, baseEdits: Edits = {}) {
    const root = pairFolder(edits, baseEdits);
    roots.push(root);
    writeFileSync(join(root, "toolc.config.yaml"), config);
    return runDiff(root, ["--base", "base", "--definitions", "head"]);
  }

  it("except turns a rule off everywhere; ignore_only for some tools; ignore skips a tool", async () => {
    expect((await withConfig("diff:\n  except: [bound-tightened]\n", BREAKING_EDIT)).code).toBe(0);
    expect((await withConfig("diff:\n  ignore_only:\n    bound-tightened: [get_order]\n", BREAKING_EDIT)).code).toBe(0);
    expect((await withConfig("diff:\n  ignore_only:\n    bound-tightened: [search_orders]\n", BREAKING_EDIT)).code).toBe(1);
    const ignored = await withConfig("diff:\n  ignore: [get_order]\n", BREAKING_EDIT);
    expect(ignored).toMatchObject({ code: 0, out: "toolc diff: no changes\n" });
  });

  it("undecided: fail makes an undecided change exit 1; without it the same change exits 0", async () => {
    // The same strings, but toolc does not read a lookahead, so it can neither prove the change compatible nor find a string that breaks.
    const UNDECIDED_EDIT: Edits = { "create_refund.yaml": [['pattern: "^ord_[A-Za-z0-9]+$"', 'pattern: "^(?=ord_)ord_[A-Za-z0-9]+$"']] };
    // get_order's view writes create_refund's input, so there the change is breaking for the view (docs/apps.md);
    // the demo without its view (in both folders) has the change undecided alone.
    const withView = await withConfig("definitions: x\n", UNDECIDED_EDIT);
    expect(withView.code).toBe(1);
    expect(withView.out).toMatch(/breaking pattern-changed: create_refund input\.orderId: .*breaks the view of get_order/);
    const NO_VIEW: Edits = { "get_order.yaml": [[/\nui:\n(?: {2}.*\n)+/.exec(readFileSync(join(DEMO, "get_order.yaml"), "utf8"))![0], "\n"]] };
    const warned = await withConfig("definitions: x\n", { ...NO_VIEW, ...UNDECIDED_EDIT }, NO_VIEW);
    expect(warned.code).toBe(0);
    expect(warned.out).toMatch(/^head\/create_refund\.yaml:16:\d+: undecided pattern-changed: create_refund input\.orderId: .*toolc does not read one of the patterns/m);
    expect(warned.out).toMatch(/toolc diff: 0 breaking, 1 undecided, 0 warnings, 0 info\n$/);
    const failed = await withConfig("diff:\n  undecided: fail\n", { ...NO_VIEW, ...UNDECIDED_EDIT }, NO_VIEW);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("create_refund");
  });

  it("an unknown rule id is a located error, with a suggestion", async () => {
    const run = await withConfig("definitions: x\ndiff:\n  except: [bound-tightend]\n", BREAKING_EDIT);
    expect(run.code).toBe(2);
    expect(run.err).toBe("toolc.config.yaml:3:12: error TC003: unknown diff rule `bound-tightend`; did you mean `bound-tightened`?\n");
  });
});
