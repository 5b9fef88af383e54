/**
 * Contracts whose `$ref` graph fans out (docs/robustness.md, "Third attack
 * pass", H2): `$defs` that each refer to the next one twice reach the last
 * one by 2^n paths, though the contract grows by one line per level. What
 * toolc writes and reports must grow with the contract, not with the paths:
 * checked by counting bytes and lines, never by timing (the test's own
 * timeout is the only clock; before the fix 16 levels never finished).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fanContract } from "../helpers/fan-contract.js";
import { projectWith, runCli } from "./helpers.js";

/** A tool whose input is `$defs` d0…d<levels>, each d<i> an object with properties a and b, both `$ref: d<i+1>`; the last is `leaf`. */
export function doublingChain(levels: number, leaf = "{ type: string, maxLength: 8 }"): string {
  const defs: string[] = [];
  for (let i = 0; i < levels; i++) {
    defs.push(`    d${i}: { type: object, properties: { a: { $ref: "#/$defs/d${i + 1}" }, b: { $ref: "#/$defs/d${i + 1}" } } }`);
  }
  defs.push(`    d${levels}: ${leaf}`);
  return fanContract(defs);
}

/** Bytes of every file below `dir` whose path contains `part`. */
function bytesUnder(dir: string, part: string): number {
  let total = 0;
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.includes(part)) total += statSync(full).size;
    }
  };
  walk(dir);
  return total;
}

const LEVELS = [12, 16, 20, 24] as const;

describe("a doubling $ref chain", () => {
  // One project per depth, generated once; each test below reads it.
  const projects = new Map<number, string>();
  const project = async (levels: number): Promise<string> => {
    const known = projects.get(levels);
    if (known !== undefined) return known;
    const dir = projectWith({ "fan.yaml": doublingChain(levels) });
    const result = await runCli(dir, ["generate"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    projects.set(levels, dir);
    return dir;
  };

  it("generates a validator and served schema that grow linearly with the levels", { timeout: 600_000 }, async () => {
    const sizes = new Map<number, { validator: number; schemas: number; providers: number }>();
    for (const levels of LEVELS) {
      const out = join(await project(levels), "generated");
      sizes.set(levels, {
        validator: statSync(join(out, "validators/fan.ts")).size,
        // The served schemas live in contracts.ts (schemas/*.json only with schemasJson: true).
        schemas: statSync(join(out, "contracts.ts")).size,
        providers: statSync(join(out, "providers.ts")).size,
      });
    }
    const at12 = sizes.get(12)!;
    for (const levels of LEVELS) {
      const size = sizes.get(levels)!;
      // Linear: 24 levels at most twice (plus a margin) what 12 take; 2^12 paths more would be 4,096 times.
      for (const key of ["validator", "schemas", "providers"] as const) {
        expect(size[key], `${key} at ${levels} levels`).toBeLessThanOrEqual(at12[key] * (levels / 12) * 1.25);
      }
    }
    // The validator grows by about the same amount every 4 levels: a constant step, not a doubling one.
    const steps = LEVELS.slice(1).map((levels, i) => sizes.get(levels)!.validator - sizes.get(LEVELS[i]!)!.validator);
    for (const step of steps) expect(step).toBeLessThanOrEqual(steps[0]! * 1.5);
    expect(sizes.get(24)!.validator).toBeLessThan(100_000);
  });

  it("check passes on what generate wrote", { timeout: 600_000 }, async () => {
    for (const levels of [16, 24]) expect((await runCli(await project(levels), ["check"])).code).toBe(0);
  });

  it("diff reports a changed leaf once, not once per path to it", { timeout: 600_000 }, async () => {
    for (const levels of LEVELS) {
      const head = projectWith({ "fan.yaml": doublingChain(levels) });
      const base = projectWith({ "fan.yaml": doublingChain(levels, "{ type: integer }") });
      const result = await runCli(head, ["diff", "--base", join(base, "definitions")]);
      const lines = result.stdout.split("\n").filter((l) => l.includes("type-changed"));
      expect(lines, `${levels} levels`).toHaveLength(1);
      expect(lines[0]).toContain(`definitions/fan.yaml:${levels + 10}:`);
      expect(result.code).toBe(1);
    }
  });

  it("diff reports a change in the middle of the chain once, in each format", { timeout: 600_000 }, async () => {
    const levels = 20;
    const head = projectWith({ "fan.yaml": doublingChain(levels) });
    const changed = doublingChain(levels).replace(
      '    d10: { type: object, properties: { a: { $ref: "#/$defs/d11" }, b: { $ref: "#/$defs/d11" } } }',
      '    d10: { type: object, properties: { a: { $ref: "#/$defs/d11" }, b: { $ref: "#/$defs/d11" } }, required: [a] }',
    );
    expect(changed).not.toBe(doublingChain(levels));
    const base = projectWith({ "fan.yaml": changed });
    for (const format of ["text", "json", "github", "markdown"]) {
      const result = await runCli(head, ["diff", "--base", join(base, "definitions"), "--format", format]);
      expect(result.stdout.split("property-became-optional").length - 1, format).toBe(1);
    }
  });

  it("docs writes a catalog, its changelog included, that grows linearly", { timeout: 600_000 }, async () => {
    const bytes = new Map<number, number>();
    for (const levels of [12, 24]) {
      const dir = await project(levels);
      const base = projectWith({ "fan.yaml": doublingChain(levels, "{ type: integer }") });
      const result = await runCli(dir, ["docs", "--out", "catalog", "--base", join(base, "definitions")]);
      expect(result.code).toBe(0);
      bytes.set(levels, bytesUnder(join(dir, "catalog"), ""));
      const changelog = readFileSync(join(dir, "catalog", "changelog.md"), "utf8");
      expect(changelog.split("type integer → string").length - 1).toBe(1);
    }
    expect(bytes.get(24)!).toBeLessThanOrEqual(bytes.get(12)! * 2.5);
  });
});
