/**
 * index.ts and http.ts are the generated modules a consumer reads, printed
 * in prettier's layout by construction (no formatter runs on them, with or
 * without `auth:`): prettier in toolc's style leaves each exactly as it is,
 * and `fittedLiteral`, which writes the values they carry, is prettier's
 * layout for any JSON value.
 */
import fc from "fast-check";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import type { AuthSetting } from "../../generator/config/auth.js";
import { hasErrors } from "../../generator/diagnostics.js";
import { emitFetchModule } from "../../generator/emit/fetch-module.js";
import { emitHttpModule } from "../../generator/emit/http-module.js";
import { emitIndexModule } from "../../generator/emit/index-module.js";
import { fittedLiteral } from "../../generator/printer/literal.js";
import { FORMAT_OPTIONS } from "../../generator/format/prettier.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { runs, timeoutFor } from "../fuzz/config.js";

const format = (text: string): Promise<string> => prettier.format(text, { ...FORMAT_OPTIONS, parser: "typescript" });

const AUTH: AuthSetting = {
  defaultScopes: ["orders:read"],
  server: {
    resource: "http://127.0.0.1/mcp",
    authorizationServers: ["https://auth.example.com/"],
    jwksUri: "https://login.example.com/00000000-0000-0000-0000-000000000000/discovery/v2.0/keys",
    algorithms: ["RS256", "ES256", "PS256", "EdDSA", "RS384", "RS512", "ES384", "ES512", "PS384"],
    clockToleranceSec: 5,
    impliedScopes: { "orders:admin": ["orders:read", "orders:write"], admin: ["orders:admin"] },
    resourceName: 'Orders "test"',
  },
};

function demoIr() {
  const tool = (name: string) => ({ source: `${name}.yaml`, display: `${name}.yaml`, text: `name: ${name}\nversion: 1\ndescription: A tool.\neffect: read\ninput: { type: object }\noutput: { type: object }\n` });
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts([tool("get_order"), tool("a_tool_with_a_name_long_enough_to_break_its_handler_type_line")]));
  expect(hasErrors(diagnostics)).toBe(false);
  return ir;
}

describe("the modules a consumer reads", () => {
  it.each([
    ["http.ts", () => emitHttpModule()],
    ["http.ts with auth", () => emitHttpModule(AUTH)],
    ["http.ts with the fewest auth settings", () => emitHttpModule({ defaultScopes: [], server: { resource: "https://mcp.example.com/" } })],
    ["fetch.ts", () => emitFetchModule()],
    ["fetch.ts with auth", () => emitFetchModule(AUTH)],
    ["index.ts", () => emitIndexModule(demoIr(), { name: "orders-server", version: "1.2.3", cache: { ttlMs: 300000, cacheScope: "public" } })],
  ])("%s is as prettier prints it", async (_label, emit) => {
    const file = emit();
    expect(await format(file.text)).toBe(file.text);
  });
});

describe("fittedLiteral", () => {
  const key = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("__proto__", "a'b", 'a"b"', "resourceName", "x-y", "0", "1e3"));
  const text = fc.oneof(fc.string({ maxLength: 75 }), fc.string({ unit: "binary-ascii", maxLength: 10 }), fc.constantFrom('a"b', "'", "\u2028", "\\", "${", "`"));
  const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
  const value = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("value"), { maxLength: 6 }), fc.array(fc.integer(), { maxLength: 40 }), fc.dictionary(key, tie("value"), { maxKeys: 4 })),
  })).value;
  const count = runs(2);

  it(
    "is prettier's layout of any JSON value, at the top level of a declaration",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(value, fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 })), async (v) => {
          const json = JSON.parse(JSON.stringify(v)) as unknown;
          const head = "const defaults: Defaults = ";
          const source = `${head}${fittedLiteral(json, { lead: head.length, tail: 1 })};\n`;
          expect(await format(source)).toBe(source);
          expect(new Function(`return (${source.slice(head.length, -2)});`)()).toStrictEqual(json);
        }),
        { numRuns: count },
      );
    },
    timeoutFor(count, 20),
  );
});
