/**
 * Each rewrite of Ajv's output (generator/emit/validators/rewrite.ts) is kept
 * only because it pays, and it pays only while it finds Ajv's text as it
 * expects. Every one leaves the code unchanged when its pattern is missing,
 * which is safe but silent; these tests make it loud: on a schema shaped like
 * the bench's contracts, each rewrite must change the code it is given, and
 * the module toolc writes must show none of the text it removes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REWRITES, standaloneModule, type RewriteName } from "../../generator/emit/validators.js";
import type { JsonObject } from "../../generator/ir.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Like bench/lib/synthetic.ts: bounds, an enum, a nullable type, a date-time, and an array of a named type. */
const OUTPUT: JsonObject = {
  type: "object",
  properties: {
    accountId: { type: "string", minLength: 1, maxLength: 64 },
    total: { type: "integer", minimum: 0 },
    items: { type: "array", items: { $ref: "#/$defs/Item" } },
    nextCursor: { type: ["string", "null"] },
  },
  required: ["accountId", "total", "items"],
  additionalProperties: false,
  $defs: {
    Item: {
      type: "object",
      properties: { id: { type: "string", pattern: "^it_" }, status: { $ref: "#/$defs/Status" }, updatedAt: { type: "string", format: "date-time" } },
      required: ["id", "status"],
      additionalProperties: false,
    },
    Status: { enum: ["pending", "active", "closed"] },
  },
};

const ALL = Object.keys(REWRITES) as RewriteName[];
const moduleWith = (rewrites: readonly RewriteName[]) => standaloneModule([{ exportName: "validateOutput", schema: OUTPUT, applyDefaults: false, validateSchema: false }], "js", rewrites);
const without = (name: RewriteName) => moduleWith(ALL.filter((n) => n !== name));

describe("each kept rewrite still fires on Ajv's current output", () => {
  const all = moduleWith(ALL);

  it("compactErrorSites: every error site is a call of the shared helper", () => {
    expect(without("compactErrorSites")).toMatch(/const err\d+ = \{instancePath/);
    expect(all).not.toMatch(/const err\d+ = /);
    expect(all).not.toContain("vErrors.push(");
    expect(all).toContain("vErrors = err$(vErrors,");
    // An error whose params are its keyword's one parameter passes the value alone.
    expect(all).toContain('vErrors = err1$(vErrors,"","required","accountId");');
    expect(all).not.toContain("{missingProperty:");
  });

  it("dropUnusedSchemas: no schema constant is left once error params no longer read it", () => {
    expect(without("dropUnusedSchemas")).toMatch(/const schema\d+ = \{/);
    expect(all).not.toMatch(/const schema\d+ = /);
  });

  it("simplifyRootSignature: the root function takes the data alone", () => {
    expect(without("simplifyRootSignature")).toMatch(/function validate\d+\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{/);
    expect(all).toMatch(/function validate\d+\(data\)\{/);
    expect(all).not.toContain("parentDataProperty");
  });

  it("every rewrite changes the code it is given", () => {
    for (const name of ALL) expect(without(name), name).not.toBe(all);
  });
});

describe("the committed generated/ validators", () => {
  const dir = `${ROOT}generated/validators/`;
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
  const shared = readdirSync(`${dir}types/`).filter((f) => f.endsWith(".ts")).map((f) => `types/${f}`);

  it("show no text the rewrites remove, and import nothing from Ajv", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(shared.length).toBeGreaterThan(0);
    for (const file of [...files, ...shared]) {
      const text = readFileSync(dir + file, "utf8");
      expect(text, file).not.toMatch(/const err\d+ = /);
      expect(text, file).not.toMatch(/\bajv\b|require\(/);
      // A tool's module imports the runtime and the shared named-type modules; those import the runtime alone.
      const allowed = file.startsWith("types/") ? /^\.\.\/\.\.\/runtime\/[a-z-]+\.js$/ : /^(?:\.\.\/runtime\/[a-z-]+|\.\/types\/[A-Za-z0-9_-]+)\.js$/;
      for (const [, specifier] of text.matchAll(/\bfrom "([^"]+)"/g)) expect(specifier, file).toMatch(allowed);
    }
  });
});

describe("the compiler reaches Ajv through its documented entry points only", () => {
  /** Ajv's documented modules: the main export, the 2020-12 class, standalone code (ajv.js.org/standalone.html). */
  const DOCUMENTED = new Set(["ajv", "ajv/dist/2020.js", "ajv/dist/standalone/index.js", "ajv-formats"]);

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return e.name === "runtime" ? [] : sources(path);
      return e.name.endsWith(".ts") ? [path] : [];
    });
  }

  it("imports no other Ajv module and touches no instance internals", () => {
    for (const file of sources(`${ROOT}generator`)) {
      const text = readFileSync(file, "utf8");
      for (const [, specifier] of text.matchAll(/(?:from |import\(|require\()"(ajv[^"]*)"/g)) expect(DOCUMENTED.has(specifier as string), `${file}: ${specifier}`).toBe(true);
      expect(text, file).not.toMatch(/\.RULES\b|\bajv\.opts\b|\.scope = |createRequire\([^)]*\)\("ajv/);
    }
  });
});
