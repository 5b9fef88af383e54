/**
 * Scopes and confirmed calls in normalize and in the config: the default
 * scopes, the served `_meta`, the reasons a confirmed tool adds, the lint
 * for destructive tools nobody scoped (TC043, only with auth on), and the
 * config's `auth` section, located when it is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../generator/config/settings.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize, type NormalizeOptions } from "../../generator/normalize/index.js";

const tool = (lines: string[]): string => ["name: delete_customer", "version: 1", "description: Delete a customer.", ...lines, "input: { type: object }", "output: { type: object }", ""].join("\n");

function compile(text: string, options: NormalizeOptions = {}) {
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts([{ source: "t.yaml", display: "t.yaml", text }]), options);
  return { tool: ir.tools[0]!, diagnostics: diagnostics.map(formatDiagnostic) };
}

const AUTH: NormalizeOptions = { auth: { defaultScopes: [], server: {} } };
const LINT = "warning TC043: destructive tool with auth on, but any caller with a valid token may run it";

describe("scopes", () => {
  it("a tool's own scopes, else the config's default; [] needs none; served in _meta", () => {
    expect(compile(tool(["effect: read", "scopes: [orders:read]"])).tool).toMatchObject({ scopes: ["orders:read"], meta: { "toolc/scopes": ["orders:read"] } });
    const defaulted = compile(tool(["effect: read"]), { auth: { defaultScopes: ["mcp:tools"], server: {} } }).tool;
    expect(defaulted).toMatchObject({ scopes: ["mcp:tools"], meta: { "toolc/scopes": ["mcp:tools"] } });
    const none = compile(tool(["effect: read", "scopes: []"]), { auth: { defaultScopes: ["mcp:tools"], server: {} } }).tool;
    expect(none.scopes).toBeUndefined();
    expect(Object.keys(none.meta)).toEqual(["toolc/contractVersion", "toolc/schemaHash"]);
  });

  it("a scope outside OAuth's scope-token alphabet is refused at its place", () => {
    expect(compile(tool(["effect: read", 'scopes: ["orders read"]'])).diagnostics.join("\n")).toMatch(/^t\.yaml:5:10: error TC003: `scopes\[0\]` must match the pattern/m);
  });

  const lint: [string, string[], NormalizeOptions, string[]][] = [
    ["destructive, unscoped, auth on", ["effect: destructive"], AUTH, [`t.yaml:4:9: ${LINT}: it declares no \`scopes\` and \`auth.defaultScopes\` is empty; give it a scope such as \`scopes: [customer:delete]\``]],
    ["destructive, scopes: [], auth on", ["effect: destructive", "scopes: []"], AUTH, [`t.yaml:5:9: ${LINT}: its \`scopes\` is empty; give it a scope such as \`scopes: [customer:delete]\``]],
    ["destructive, scoped by the default", ["effect: destructive"], { auth: { defaultScopes: ["admin"], server: {} } }, []],
    ["destructive, unscoped, auth off", ["effect: destructive"], {}, []],
    ["a write, unscoped, auth on", ["effect: write"], AUTH, []],
  ];
  it.each(lint)("TC043: %s", (_name, lines, options, expected) => {
    expect(compile(tool(lines), options).diagnostics).toEqual(expected);
  });
});

describe("confirm", () => {
  it("adds toolc's three reasons after the declared ones", () => {
    const { tool: ir } = compile(tool(["effect: destructive", "scopes: [admin]", "confirm: true", "errors: { HAS_ORDERS: { description: Open orders. } }"]));
    expect(ir.confirm).toBe(true);
    expect(ir.errors.map((e) => e.code)).toEqual(["HAS_ORDERS", "CONFIRMATION_DECLINED", "CONFIRMATION_INVALID", "CONFIRMATION_UNAVAILABLE"]);
    expect(compile(tool(["effect: destructive", "confirm: false"])).tool.confirm).toBeUndefined();
  });

  it("a contract cannot declare a reserved reason itself", () => {
    const { diagnostics } = compile(tool(["effect: destructive", "errors: { CONFIRMATION_DECLINED: { description: Mine. } }"]));
    expect(diagnostics).toEqual(["t.yaml:5:11: error TC003: rejection reason `CONFIRMATION_DECLINED` is reserved for confirmed calls (`confirm: true`); name it otherwise"]);
  });
});

describe("the config's auth section", () => {
  async function settings(config: string) {
    const dir = mkdtempSync(join(tmpdir(), "toolc-auth-config-"));
    try {
      writeFileSync(join(dir, "toolc.config.yaml"), config);
      writeFileSync(join(dir, "package.json"), "{}");
      const result = await resolveSettings(dir, {});
      return { auth: result.settings?.auth, diagnostics: result.diagnostics.map(formatDiagnostic) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("turns auth on and splits the default scopes from the server's settings", async () => {
    const { auth, diagnostics } = await settings("mcp: { sdk: 2 }\nauth:\n  resource: https://mcp.example.com/mcp\n  authorizationServers: [https://login.example.com/]\n  defaultScopes: [mcp:tools]\n");
    expect(diagnostics).toEqual([]);
    expect(auth).toEqual({ defaultScopes: ["mcp:tools"], server: { resource: "https://mcp.example.com/mcp", authorizationServers: ["https://login.example.com/"] } });
  });

  it("takes a key set over plain http on a loopback host (a local authorization server)", async () => {
    const { auth, diagnostics } = await settings("mcp: { sdk: 2 }\nauth:\n  jwksUri: http://127.0.0.1:8081/jwks.json\n");
    expect(diagnostics).toEqual([]);
    expect(auth?.server.jwksUri).toBe("http://127.0.0.1:8081/jwks.json");
  });

  it.each([
    ["on SDK 1.x", "mcp: { sdk: 1 }\nauth:\n  resource: https://mcp.example.com/mcp\n", /^toolc\.config\.yaml:3:3: error TC003: `auth` needs MCP SDK 2\.x/],
    ["a resource with a fragment", "mcp: { sdk: 2 }\nauth:\n  resource: https://mcp.example.com/mcp#x\n", /^toolc\.config\.yaml:3:13: error TC003: `auth\.resource` must not have a fragment/],
    ["an authorization server that is not a URL", "mcp: { sdk: 2 }\nauth:\n  authorizationServers: [https://a.example.com/, 'https://b example']\n", /^toolc\.config\.yaml:3:50: error TC003: `auth\.authorizationServers` entry is not an absolute URL/],
    ["a key set over plain http off loopback", "mcp: { sdk: 2 }\nauth:\n  jwksUri: http://login.example.com/jwks.json\n", /^toolc\.config\.yaml:3:12: error TC003: `auth\.jwksUri` uses plain http on a host that is not loopback/],
    ["an unknown key", "mcp: { sdk: 2 }\nauth:\n  audiance: x\n", /^toolc\.config\.yaml:3:3: error TC002: unknown key `audiance` in `auth`; did you mean `audience`\?$/],
    ["a public tool list that depends on the caller", "mcp: { sdk: 2, cache: { cacheScope: public } }\nauth:\n  resource: https://mcp.example.com/mcp\n", /^toolc\.config\.yaml:3:3: error TC003: `mcp\.cache\.cacheScope: public` with auth on/],
    ["alg none", "mcp: { sdk: 2 }\nauth:\n  algorithms: [none]\n", /^toolc\.config\.yaml:3:3: error TC003: `auth` must be a map of resource-server settings/],
  ])("%s is a located error", async (_name, config, expected) => {
    const { auth, diagnostics } = await settings(config);
    expect(auth).toBeUndefined();
    expect(diagnostics.join("\n")).toMatch(expected);
  });
});
