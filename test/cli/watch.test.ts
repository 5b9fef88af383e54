/**
 * `toolc generate --watch` in a real folder, as a child process: every save
 * of a definition or the config recompiles; a broken contract prints its
 * located diagnostic and leaves the output as it was; SIGINT stops it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyDemo, projectWith, ROOT, snapshotTree } from "../compiler/helpers.js";
import { changedFiles } from "../helpers/target-files.js";

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

interface Watching {
  readonly proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once `test` holds for the output so far; polls, so it never depends on timing. */
  until(test: (out: { stdout: string; stderr: string }) => boolean): Promise<void>;
}

function startWatch(dir: string): Watching {
  const env = { ...process.env, TOOLC_CACHE_DIR: mkdtempSync(join(tmpdir(), "toolc-watch-cache-")) };
  const proc = spawn(process.execPath, [join(ROOT, "bin/toolc.js"), "generate", "--watch"], { cwd: dir, env });
  child = proc;
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return {
    proc,
    stdout: () => stdout,
    stderr: () => stderr,
    until: async (test) => {
      // A generous bound, only so that a hang fails with the output in view.
      for (let waited = 0; !test({ stdout, stderr }); waited += 50) {
        if (proc.exitCode !== null) throw new Error(`watch exited early (${proc.exitCode}):\n${stdout}\n${stderr}`);
        if (waited > 45_000) throw new Error(`watch output never matched:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

const PING = `name: ping
version: 1
description: Answer pong.
effect: read
input: { type: object }
output: { type: object, properties: { pong: { type: boolean } }, required: [pong] }
`;

const runs = (stdout: string): number => stdout.split("\n").filter((l) => l.startsWith("toolc: ")).length;

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

describe("toolc generate --watch", () => {
  it("recompiles on every save, keeps the output on a broken contract, sees new folders, follows the config, and stops on SIGINT", { timeout: 300_000 }, async () => {
    const dir = copyDemo();
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\n");
    const contract = join(dir, "definitions/get_order.yaml");
    const w = startWatch(dir);
    await w.until(({ stdout, stderr }) => runs(stdout) === 1 && stderr.includes("toolc: watching definitions/ and toolc.config.yaml"));
    expect(w.stdout()).toMatch(/^toolc: 4 tools compiled; \d+ files written, 0 unchanged/);

    // Each step waits for what it expects; an editor's save may raise more than one event, and so more than one run.
    const first = snapshotTree(join(dir, "generated"));
    edit(contract, "Look up one customer's orders.", "Look up the orders of one customer.");
    await w.until(() => readFileSync(join(dir, "generated/contracts.ts"), "utf8").includes("Look up the orders of one customer."));
    await w.until(({ stdout }) => runs(stdout) >= 2);
    // The run rewrites exactly the files whose text changed: contracts.ts and whatever else a target writes the
    // description into (not providers.ts: its entries take the description from the contract at load).
    const rewritten = changedFiles(first, snapshotTree(join(dir, "generated")));
    expect(rewritten).toEqual(expect.arrayContaining(["contracts.ts"]));
    expect(rewritten).not.toContain("providers.ts");
    expect(w.stdout().split("\n")[1]).toMatch(new RegExp(`^toolc: 4 tools compiled; ${rewritten.length} files? written`));

    const good = snapshotTree(join(dir, "generated"));
    edit(contract, "effect: read", "effect: wrte");
    await w.until(({ stderr }) => stderr.includes("nothing was written"));
    expect(w.stderr()).toMatch(/definitions\/get_order\.yaml:\d+:\d+: error TC003: `effect` must be one of read, write, destructive; did you mean `write`\?/);
    expect(snapshotTree(join(dir, "generated"))).toEqual(good);

    const before = runs(w.stdout());
    edit(contract, "effect: wrte", "effect: read");
    await w.until(({ stdout }) => runs(stdout) > before);
    expect(w.stdout().split("\n")[before]).toMatch(/^toolc: 4 tools compiled; 0 files written/);
    expect(snapshotTree(join(dir, "generated"))).toEqual(good);

    writeFileSync(join(dir, "toolc.config.yaml"), "tests: spec\n");
    await w.until(() => Object.keys(snapshotTree(join(dir, "spec"))).length === 4);

    mkdirSync(join(dir, "definitions/more"));
    writeFileSync(join(dir, "definitions/more/ping.yaml"), PING);
    await w.until(({ stdout }) => stdout.includes("toolc: 5 tools compiled"));
    await w.until(() => readFileSync(join(dir, "generated/index.ts"), "utf8").includes("ping"));
    const last = snapshotTree(join(dir, "generated"));

    writeFileSync(join(dir, "toolc.config.yaml"), "tests: spec\nout: [\n");
    await w.until(({ stderr }) => stderr.includes("the config file has errors"));
    expect(w.stderr()).toMatch(/toolc\.config\.yaml:\d+:\d+: error TC001: YAML syntax error/);

    const exited = new Promise<number | null>((resolve) => w.proc.on("exit", (code) => resolve(code)));
    w.proc.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(w.stderr()).toContain("toolc: stopped watching");
    expect(snapshotTree(join(dir, "generated"))).toEqual(last);
  });

  it("prints a code's warnings again only when they changed", { timeout: 120_000 }, async () => {
    const strings = (n: number): string => Array.from({ length: n }, (_, i) => `    p${i}: { type: string }`).join("\n");
    const tool = (description: string, n: number): string =>
      `name: t\nversion: 1\ndescription: ${description}\neffect: read\ninput:\n  type: object\n  properties:\n${strings(n)}\noutput: { type: object }\n`;
    const dir = projectWith({ "t.yaml": tool("One.", 5) });
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\n");
    const grouped = (stderr: string): string[] => stderr.split("\n").filter((l) => / warning TC036: .*\(and \d+ more TC036 warnings/.test(l));
    const w = startWatch(dir);
    await w.until(({ stdout }) => runs(stdout) === 1);
    expect(grouped(w.stderr())).toHaveLength(1);

    writeFileSync(join(dir, "definitions/t.yaml"), tool("Two.", 5));
    // A save may raise more than one event, and so more than one run; each says the same.
    await w.until(({ stderr }) => stderr.includes("toolc: warnings as in the last run, not repeated: TC036 ×5\n"));
    expect(grouped(w.stderr())).toHaveLength(1);

    writeFileSync(join(dir, "definitions/t.yaml"), tool("Two.", 6));
    await w.until(({ stderr }) => grouped(stderr).length > 1);
    await w.until(({ stdout }) => runs(stdout) >= 3);
    expect(grouped(w.stderr())).toHaveLength(2);
    expect(grouped(w.stderr())[1]).toContain("(and 5 more TC036 warnings");
  });
});
