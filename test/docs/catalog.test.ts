/**
 * The catalog emitter on the demo's contracts: which files, that every link
 * and anchor resolves, that the output depends on nothing but the IR, the
 * policy's hashes, the changelog's grouping, and the fields the IR gains
 * (scopes, deprecation, header and secret marks, any output root).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { contracts } from "../../generated/index.js";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromFolder, sideFromTexts, type ContractSide } from "../../generator/diff/sources.js";
import { emitCatalog, type CatalogOptions } from "../../generator/emit/catalog/index.js";
import type { ContractIR, EmittedFile, ToolIR } from "../../generator/ir.js";
import { readDefinitionTexts } from "../../generator/load/files.js";
import { GENERATED_MARKER } from "../../generator/printer/header.js";
import { ROOT } from "../compiler/helpers.js";
import { toolFileName } from "../../generator/emit/ts-names.js";

function demoSide(edit: (source: string, text: string) => string = (_s, t) => t): ContractSide {
  const texts = (readDefinitionTexts(join(ROOT, "definitions"), ROOT) ?? []).map((t) => ({ ...t, text: edit(t.source, t.text) }));
  const side = sideFromTexts(texts, "definitions").side;
  if (!side) throw new Error("the demo definitions do not compile");
  return side;
}

const OPTIONS: CatalogOptions = { title: "Demo", definitions: "definitions", releases: [] };
const byPath = (files: readonly EmittedFile[]): Map<string, string> => new Map(files.map((f) => [f.path, f.text]));

describe("the demo's catalog", () => {
  const ir = demoSide().ir;
  const files = emitCatalog(ir, OPTIONS);
  const texts = byPath(files);

  it("has an index, a page per tool, the types, each as HTML and Markdown, and llms.txt", () => {
    const pages = ["index", ...ir.tools.map((t) => `tools/${toolFileName(t)}`), "types"];
    expect(files.map((f) => f.path)).toEqual([...pages.flatMap((p) => [`${p}.html`, `${p}.md`]), "llms.txt"].sort());
    expect(files.every((f) => f.root === undefined)).toBe(true);
  });

  it("marks every file as toolc's near its top, so a stale page is removed like any generated file", () => {
    for (const f of files) expect(f.text.slice(0, 400), f.path).toContain(GENERATED_MARKER);
  });

  it("depends on the IR alone: the same bytes twice, and whatever order the tools and their fields come in", () => {
    const shuffled: ContractIR = { ...ir, tools: [...ir.tools].reverse().map((t) => Object.fromEntries(Object.entries(t).reverse()) as unknown as ToolIR) };
    expect(emitCatalog(ir, OPTIONS)).toEqual(files);
    expect(emitCatalog(shuffled, OPTIONS)).toEqual(files);
  });

  it("links only to files it writes, and to anchors that exist on them", () => {
    for (const f of files.filter((file) => file.path.endsWith(".html"))) {
      for (const [, href] of f.text.matchAll(/href="([^"]*)"/g)) {
        const [path = "", anchor] = href!.replace(/&amp;/g, "&").split("#");
        const target = path === "" ? f.path : posix.normalize(posix.join(posix.dirname(f.path), path));
        expect(texts.has(target), `${f.path} → ${href}`).toBe(true);
        if (anchor !== undefined && target.endsWith(".html")) expect(texts.get(target), `${f.path} → ${href}`).toContain(`id="${decodeURIComponent(anchor)}"`);
      }
    }
  });

  it("gives the Markdown the same links, to the .md pages and the same anchors", () => {
    for (const f of files.filter((file) => file.path.endsWith(".md"))) {
      for (const [, href] of f.text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [path = "", anchor] = href!.split("#");
        const target = path === "" ? f.path : posix.normalize(posix.join(posix.dirname(f.path), path));
        expect(texts.has(target), `${f.path} → ${href}`).toBe(true);
        if (anchor !== undefined) expect(texts.get(target.replace(/\.md$/, ".html")), `${f.path} → ${href}`).toContain(`id="${decodeURIComponent(anchor)}"`);
      }
    }
  });

  it("allows exactly its inline style and script, by their hashes", () => {
    const page = texts.get("index.html") ?? "";
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? "";
    const hash = (s: string): string => createHash("sha256").update(s).digest("base64");
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1]?.replace(/&#39;/g, "'") ?? "";
    expect(policy).toBe(`default-src 'none'; style-src 'sha256-${hash(style)}'; script-src 'sha256-${hash(script)}'; img-src data:; base-uri 'none'; form-action 'none'`);
    expect(page.match(/<script/g)).toHaveLength(1);
  });

  it("shows each tool's policy, its contract file, the served schemas and its examples' paths to fix", () => {
    const md = texts.get("tools/create_refund.md") ?? "";
    expect(md).toContain("- **Contract:** `definitions/create_refund.yaml`");
    expect(md).toContain("- **Idempotency key:** input property `requestId`: calls with the same key are applied once");
    expect(md).toContain("- **Retry:** up to 3 attempts in all, after a transient error or a timeout");
    expect(md).toContain("- **Backoff:** 200 ms, doubling per attempt with full jitter, at most 1 s per delay");
    expect(md).toContain("| `AMOUNT_TOO_LARGE` | The refund exceeds what is left to refund. |");
    expect(md).toContain("the agent is told to fix `amount.amountCents`, `amount.currency`.");
    const served = { tool: contracts.create_refund };
    expect(md).toContain(`inputSchema:\n\n\`\`\`json\n${JSON.stringify(served.tool.inputSchema, null, 2)}\n\`\`\``);
  });

  it("writes llms.txt as llmstxt.org describes: a title, a summary, then lists of links to the Markdown pages", () => {
    const llms = (texts.get("llms.txt") ?? "").split("\n");
    expect(llms[0]).toBe("# Demo");
    expect(llms[2]).toMatch(/^> Generated by toolc .* 4 tools, /);
    const links = llms.filter((l) => l.startsWith("- ["));
    expect(links.map((l) => /\]\(([^)]+)\)/.exec(l)?.[1])).toEqual([...ir.tools.map((t) => `tools/${toolFileName(t)}.md`), "types.md"]);
    expect(llms).toContain("- [get\\_order](tools/get_order.md): read. Get order. Look up one customer's orders.");
  });
});

describe("the changelog", () => {
  const base = demoSide();
  const head = demoSide((source, text) =>
    source === "get_order.yaml"
      ? text.replace("minLength: 1, maxLength: 64", "minLength: 1, maxLength: 32").replace("CUSTOMER_BLOCKED: { description: The customer is blocked; ask a human. }", "CUSTOMER_BLOCKED: { description: The customer is blocked; ask a human. }\n  TOO_MANY: { description: Too many orders. }")
      : source === "types.yaml"
        ? text.replace("enum: [pending, paid, cancelled]", "enum: [pending, paid, cancelled, refunded]")
        : text,
  );
  const result = diffContracts(base, head, EMPTY_DIFF_CONFIG);
  const files = byPath(emitCatalog(head.ir, { ...OPTIONS, releases: [{ base: "v1", result }, { head: "v1", base: "v0", problem: "The contracts at v0 do not compile with this toolc, so this release is not compared." }] }));

  it("has a section per release, and in it a table per tool, breaking first", () => {
    const md = files.get("changelog.md") ?? "";
    expect(md).toContain("## Since v1");
    expect(md).toContain("## v1 (since v0)\n\n**not compared** The contracts at v0 do not compile");
    const getOrder = md.slice(md.indexOf("### [`get_order`]"), md.indexOf("### ", md.indexOf("### [`get_order`]") + 4));
    const levels = [...getOrder.matchAll(/^\| \*\*(?:⚠ )?(\w+)\*\* \|/gm)].map((m) => m[1]);
    expect(levels[0]).toBe("breaking");
    expect(levels).toEqual([...levels].sort((a, b) => ["breaking", "warning", "info"].indexOf(a!) - ["breaking", "warning", "info"].indexOf(b!)));
    expect(getOrder).toContain("| maxLength 64 → 32 | `input.customerId` | `bound-tightened` |");
    // A change in a named type is listed under each tool it reaches, at that tool's level.
    const tools = [...md.matchAll(/^### \[`(\w+)`\]/gm)].map((m) => m[1]);
    expect(tools).toEqual(["get_order", "search_orders"]);
  });

  it("lists a tool's changes on its own page, linked to the changelog", () => {
    const page = files.get("tools/get_order.html") ?? "";
    expect(page).toContain('<a href="../changelog.html#get_order">Since v1</a>');
    expect(files.get("tools/delete_customer.html")).not.toContain('id="changes"');
  });
});

describe("scopes, confirmation, lifecycle, header and secret marks", () => {
  const ir = demoSide().ir;
  const lifecycle = "scopes: [customers:delete, admin]\nconfirm: true\ndeprecated: use erase_customer\nsunset: 2027-01-01\n";
  const tool = demoSide((source, text) => (source === "delete_customer.yaml" ? `${text.trimEnd()}\n${lifecycle}` : text)).ir.tools.find((t) => t.name === "delete_customer") as ToolIR;
  const extended = {
    ...tool,
    inputSchema: { ...tool.inputSchema, properties: { ...(tool.inputSchema["properties"] as object), region: { type: "string", maxLength: 8, "x-mcp-header": "Region" } } },
    outputSchema: { type: "array", items: { type: "object", properties: { token: { type: "string", "x-sensitive": "withhold" } }, required: ["token"], additionalProperties: false } },
  } as ToolIR;
  const files = byPath(emitCatalog({ ...ir, tools: ir.tools.map((t) => (t.name === tool.name ? extended : t)) }, OPTIONS));

  it("adds a Scopes column to the index once a tool has scopes, and marks deprecation, sunset and confirmation", () => {
    const index = files.get("index.md") ?? "";
    expect(index).toContain("| Tool | Title | Effect | Scopes | Version | Notes | Description |");
    expect(index).toMatch(/\| \[`delete_customer`\]\(tools\/delete_customer\.md\) \| Delete customer \| \*\*⚠ destructive\*\* \| `customers:delete`, `admin` \| 1 \| \*\*deprecated\*\* \*\*sunset 2027-01-01\*\* \*\*confirmed\*\* \|/);
    const page = files.get("tools/delete_customer.md") ?? "";
    expect(page).toContain("- **Scopes:** `customers:delete`, `admin`");
    expect(page).toContain("- **Deprecated:** use erase\\_customer");
    expect(page).toContain("- **Sunset:** may be removed from 2027-01-01");
    expect(page).toContain("- **Confirmed:** yes: the user approves each call, with its exact arguments, before the handler runs");
  });

  it("shows x-mcp-header and x-sensitive as marks, and an output whose root is an array", () => {
    const page = files.get("tools/delete_customer.md") ?? "";
    expect(page).toContain("| `region` | string | no | at most 8 characters · **header Mcp-Param-Region** |");
    expect(page).toContain("| `adminToken` | string | yes | 8–256 characters · **sensitive** | Admin credential. Never logged. |");
    // No field of this output has a description: the column is left out, in both renderings.
    expect(page).toContain("Root: array\n\n| Field | Type | Required | Details |\n");
    expect(files.get("tools/delete_customer.html")).toMatch(/<table class="schema"><thead><tr><th scope="col">Field<\/th><th scope="col">Type<\/th><th scope="col">Required<\/th><th scope="col">Details<\/th><\/tr>/);
    expect(page).toContain("| each item › `token` | string | yes | **sensitive: withhold** |");
  });

  it("leaves the Scopes column out while no tool has scopes", () => {
    expect(byPath(emitCatalog(ir, OPTIONS)).get("index.md")).toContain("| Tool | Title | Effect | Version | Notes | Description |");
  });

  it("leaves the Title column out when no tool has a title, as most imported APIs have none", () => {
    const untitled = byPath(emitCatalog({ ...ir, tools: ir.tools.map(({ title: _title, ...rest }) => rest as ToolIR) }, OPTIONS));
    expect(untitled.get("index.md")).toContain("| Tool | Effect | Version | Notes | Description |");
    expect(untitled.get("index.html")).not.toContain(`class="c-title"`);
  });
});

describe("$defs names that a reference escapes", () => {
  // `a/b` is written `a~1b` in a pointer, `x%y` is `x%25y` in a URI fragment: the link names the entry, decoded both ways.
  const text = `name: odd_defs
version: 1
description: A tool whose $defs names are escaped in its references.
effect: read
input:
  type: object
  properties:
    slash: { $ref: "#/$defs/a~1b" }
    percent: { $ref: "#/$defs/x%25y" }
  $defs:
    a/b: { type: string, maxLength: 4 }
    x%y: { type: integer }
output:
  type: object
`;
  const side = sideFromTexts([{ source: "odd_defs.yaml", display: "definitions/odd_defs.yaml", text }], "definitions").side;
  const page = byPath(emitCatalog(side!.ir, OPTIONS)).get("tools/odd_defs.md") ?? "";

  it("links each reference to its definition's section", () => {
    expect(page).toContain("| `slash` | [`a/b`](#input-definition-ab) | no |");
    expect(page).toContain("| `percent` | [`x%y`](#input-definition-xy) | no |");
    expect(page).toContain("### Input definition `a/b`");
    expect(page).toContain("### Input definition `x%y`");
  });
});

describe("folder sides", () => {
  it("reads the demo's definitions through toolc diff's loader", () => {
    expect(sideFromFolder("definitions", ROOT).side?.ir.tools.map((t) => t.name)).toEqual(demoSide().ir.tools.map((t) => t.name));
  });
});
