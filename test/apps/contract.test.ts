/**
 * The contract's `ui:` section (MCP Apps): a valid one reaches the IR and the
 * tool's `_meta` as the extension serves it, and every mistake is a located
 * error (file:line:col), from the meta-schema or from normalize/ui.ts and
 * normalize/ui-set.ts.
 */
import { describe, expect, it } from "vitest";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { originProblem } from "../../generator/normalize/ui.js";

/** A tool named `name` in `source`, whose `ui:` section is the given YAML lines (indented two spaces). */
function tool(name: string, ui: string): string {
  return `name: ${name}\nversion: 1\ndescription: d\neffect: read\ninput: { type: object }\noutput: { type: object }\nui:\n${ui}\n`;
}

function run(...tools: { source: string; text: string }[]) {
  const loaded = loadDefinitionsFromTexts([
    { source: "types.yaml", display: "types.yaml", text: "types: {}\n" },
    ...tools.map((t) => ({ ...t, display: t.source })),
  ]);
  return normalize(loaded);
}

const errors = (r: ReturnType<typeof run>) => r.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line}:${d.col} ${d.code}`);

describe("ui: a valid section", () => {
  it("reaches the IR, with the view resolved against the contract's folder, and the tool's _meta", () => {
    const r = run({
      source: "orders/t.yaml",
      text: tool(
        "t",
        '  source: ../views/t.html\n  title: T view\n  csp: { connectDomains: ["https://api.example.com", "wss://*.example.com:8443"], resourceDomains: [] }\n  permissions: [clipboardWrite]\n  visibility: [model, app]\n  calls: [t]',
      ),
    });
    expect(errors(r)).toEqual([]);
    const t = r.ir.tools[0];
    expect(t?.ui?.view).toMatchObject({
      source: "views/t.html",
      uri: "ui://t/view.html",
      title: "T view",
      csp: { connectDomains: ["https://api.example.com", "wss://*.example.com:8443"] },
      permissions: ["clipboardWrite"],
      calls: ["t"],
    });
    expect(t?.meta).toMatchObject({ ui: { resourceUri: "ui://t/view.html", visibility: ["model", "app"] }, "ui/resourceUri": "ui://t/view.html" });
  });

  it("an app-only tool without a view carries its visibility alone", () => {
    const r = run({ source: "t.yaml", text: tool("t", "  visibility: [app]") });
    expect(errors(r)).toEqual([]);
    expect(r.ir.tools[0]?.meta.ui).toEqual({ visibility: ["app"] });
    expect(r.ir.tools[0]?.meta["ui/resourceUri"]).toBeUndefined();
  });

  it("a tool without ui: has no ui key in its IR or _meta", () => {
    const r = run({ source: "t.yaml", text: "name: t\nversion: 1\ndescription: d\neffect: read\ninput: { type: object }\noutput: { type: object }\n" });
    expect(r.ir.tools[0]?.ui).toBeUndefined();
    expect(Object.keys(r.ir.tools[0]?.meta ?? {}).filter((k) => k.startsWith("ui"))).toEqual([]);
  });
});

describe("ui: located errors", () => {
  it.each([
    ["a domain with a path", '  source: v.html\n  csp: { connectDomains: ["https://api.example.com/v1"] }', "t.yaml:9:27 TC101"],
    ["a domain with no scheme", '  source: v.html\n  csp:\n    resourceDomains: ["cdn.example.com"]', "t.yaml:10:23 TC101"],
    ["a domain of another scheme", '  source: v.html\n  csp:\n    frameDomains: ["javascript://x"]', "t.yaml:10:20 TC101"],
    ["a domain with a trailing slash", '  source: v.html\n  csp:\n    connectDomains: ["https://a.example/"]', "t.yaml:10:22 TC101"],
    ["a source outside the definitions", "  source: ../../elsewhere/v.html", "t.yaml:8:11 TC100"],
    ["a source that is not HTML", "  source: view.tsx", "t.yaml:8:11 TC100"],
    ["an absolute source", "  source: /tmp/v.html", "t.yaml:8:11 TC100"],
    ["a view key without a source", "  visibility: [app]\n  title: T", "t.yaml:9:3 TC100"],
    ["an unknown permission (meta-schema)", "  source: v.html\n  permissions: [usb]", "t.yaml:9:17 TC003"],
    ["an unknown visibility (meta-schema)", "  visibility: [user]", "t.yaml:8:16 TC003"],
    ["a uri of another scheme (meta-schema)", "  source: v.html\n  uri: https://x/v.html", "t.yaml:9:8 TC003"],
    ["an unknown key (meta-schema)", "  source: v.html\n  sandbox: strict", "t.yaml:9:3 TC002"],
    ["calls naming no tool", "  source: v.html\n  calls: [t, nope]", "t.yaml:9:14 TC103"],
  ])("%s", (_name, ui, want) => {
    expect(errors(run({ source: "t.yaml", text: tool("t", ui) }))).toEqual([want]);
  });

  it("two views claiming one ui:// URI: the second is located at its uri", () => {
    const r = run(
      { source: "a.yaml", text: tool("a", "  source: a.html\n  uri: ui://shop/view.html") },
      { source: "b.yaml", text: tool("b", "  source: b.html\n  uri: ui://shop/view.html") },
    );
    expect(errors(r)).toEqual(["b.yaml:9:8 TC102"]);
    expect(r.diagnostics.find((d) => d.code === "TC102")?.message).toContain("already the view of `a` (a.yaml)");
  });

  it("a default uri that another view names explicitly is a clash too, located at the ui: key", () => {
    const r = run(
      { source: "a.yaml", text: tool("a", "  source: a.html\n  uri: ui://b/view.html") },
      { source: "b.yaml", text: tool("b", "  source: b.html") },
    );
    expect(errors(r)).toEqual(["b.yaml:7:1 TC102"]);
  });
});

describe("originProblem", () => {
  it.each([
    ["https://api.example.com", undefined],
    ["http://localhost:3000", undefined],
    ["https://*.cdn.example.com", undefined],
    ["wss://[::1]:9000", undefined],
    ["https://user@host.example", "it carries credentials"],
    ["https://host:99999", "port 99999 is out of range"],
    ["https://*", "`*` is not a host name"],
    ["ftp://files.example", "its scheme `ftp` is not one of https, http, wss, ws"],
  ])("%s", (domain, want) => {
    expect(originProblem(domain)).toBe(want);
  });
});
