/**
 * A tool's page: what it does, what it may change, what it accepts and
 * returns, how it fails, its examples, what changed, and the schemas exactly
 * as tools/list serves them.
 */
import type { DefOrigin, ExampleIR, JsonObject, JsonSchema, ToolIR } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { defsEntryName } from "../../schema/refs.js";
import { listedTool } from "../schemas-json.js";
import { changesByTool, levelBadge, releaseAnchors, releaseTitle, whereCell } from "./changelog.js";
import { contractFile, FRAME_IDS, idAllocator, type Catalog } from "./context.js";
import { badge, code, joined, link, text, type Block, type Inline, type Page, type PageId, type Row } from "./model.js";
import { rootSummary, SCHEMA_COLUMNS, schemaRows, type RefResolver } from "./schema-rows.js";
import { effectBadge, policyFacts, timingFacts, toolBadges } from "./tool-facts.js";
import { toolFileName } from "../ts-names.js";

type Direction = "input" | "output";

interface ToolPageContext {
  readonly catalog: Catalog;
  readonly tool: ToolIR;
  readonly page: PageId;
  readonly id: (words: string) => string;
  /** Anchors of this tool's local `$defs`, per direction. */
  readonly localAnchors: Readonly<Record<Direction, ReadonlyMap<string, string>>>;
}

const schemaOf = (tool: ToolIR, d: Direction): JsonObject => (d === "input" ? tool.inputSchema : tool.outputSchema);
const defsOf = (tool: ToolIR, d: Direction): Readonly<Record<string, DefOrigin>> => (d === "input" ? tool.inputDefs : tool.outputDefs);

function localDefs(tool: ToolIR, d: Direction): [string, JsonSchema][] {
  const defs = schemaOf(tool, d)["$defs"];
  if (!isJsonObject(defs)) return [];
  const origins = defsOf(tool, d);
  return Object.entries(defs).filter(([key]) => Object.hasOwn(origins, key) && origins[key]?.kind === "local") as [string, JsonSchema][];
}

function resolverFor(ctx: ToolPageContext, d: Direction): RefResolver {
  const origins = defsOf(ctx.tool, d);
  return (ref) => {
    const key = defsEntryName(ref);
    if (key === undefined || !Object.hasOwn(origins, key)) return undefined;
    const origin = origins[key];
    if (origin?.kind === "named") {
      const anchor = ctx.catalog.typeAnchor(origin.name);
      return { name: origin.name, to: { page: "types", ...(anchor === undefined ? {} : { anchor }) } };
    }
    const anchor = ctx.localAnchors[d].get(key);
    return { name: key, to: { page: ctx.page, ...(anchor === undefined ? {} : { anchor }) } };
  };
}

function schemaBlocks(label: string, schema: JsonSchema, resolve: RefResolver): Block[] {
  return [
    { kind: "paragraph", content: [text("Root: "), ...rootSummary(schema, resolve)] },
    { kind: "table", role: "schema", label, columns: SCHEMA_COLUMNS, rows: schemaRows(schema, resolve) },
  ];
}

function directionSection(ctx: ToolPageContext, d: Direction, title: string): Block {
  const resolve = resolverFor(ctx, d);
  const defs = localDefs(ctx.tool, d).map(([key, schema]): Block => ({
    kind: "section",
    id: ctx.localAnchors[d].get(key) ?? key,
    level: 3,
    title: [text(`${title} definition `), code(key)],
    blocks: schemaBlocks(`${ctx.tool.name} ${d} definition ${key}`, schema, resolve),
  }));
  return {
    kind: "section",
    id: ctx.id(title),
    level: 2,
    title: [text(title)],
    blocks: [...schemaBlocks(`${ctx.tool.name} ${d}`, schemaOf(ctx.tool, d), resolve), ...defs],
  };
}

function rejectionsSection(ctx: ToolPageContext): Block {
  const rows: Row[] = ctx.tool.errors.map((e) => ({ cells: [[code(e.code)], [text(e.description)]] }));
  const blocks: Block[] =
    rows.length === 0
      ? [{ kind: "paragraph", content: [text("None declared: the handler cannot reject a call with a business reason.")] }]
      : [
          {
            kind: "paragraph",
            content: [
              text("The handler may refuse a call with one of these reasons; the caller gets "),
              code("REJECTED"),
              text(" with the reason, and nothing changed."),
            ],
          },
          { kind: "table", role: "plain", label: `${ctx.tool.name} rejections`, columns: ["Reason", "Description"], rows },
        ];
  return { kind: "section", id: ctx.id("Rejections"), level: 2, title: [text("Rejections")], blocks };
}

function invalidPaths(example: ExampleIR): Inline[] {
  const paths = (example.invalid ?? []).map((p) => [p === "" ? text("(the input itself)") : code(p)]);
  return [text("Refused with "), code("INVALID_INPUT"), text(" before the handler runs; the agent is told to fix "), ...joined(paths, ", "), text(".")];
}

function exampleSection(ctx: ToolPageContext, example: ExampleIR): Block {
  const id = ctx.id(example.name);
  const valid = example.invalid === undefined;
  const blocks: Block[] = [{ kind: "json", label: "Input", id: `${id}-input`, value: example.input, open: true }];
  if (!valid) blocks.push({ kind: "paragraph", content: invalidPaths(example) });
  if (example.output !== undefined) blocks.push({ kind: "json", label: "Output", id: `${id}-output`, value: example.output, open: true });
  return { kind: "section", id, level: 3, title: [badge(valid ? "valid" : "invalid", valid ? "read" : "destructive"), text(` ${example.name}`)], blocks };
}

function examplesSection(ctx: ToolPageContext): Block {
  const intro: Block = {
    kind: "paragraph",
    content: [
      text(
        "Checked when the contract is compiled: valid inputs pass the input schema and their outputs the output schema; each invalid input fails at the paths shown.",
      ),
    ],
  };
  const blocks =
    ctx.tool.examples.length === 0
      ? [{ kind: "paragraph", content: [text("None.")] } as Block]
      : [intro, ...ctx.tool.examples.map((e) => exampleSection(ctx, e))];
  return { kind: "section", id: ctx.id("Examples"), level: 2, title: [text("Examples")], blocks };
}

/** This tool's changes in every release, or nothing when it has none. */
function changesSection(ctx: ToolPageContext): Block[] {
  const anchors = releaseAnchors(ctx.catalog);
  const rows: Row[] = ctx.catalog.options.releases.flatMap((release, i) => {
    const changes = release.result ? (changesByTool(release.result).get(ctx.tool.name) ?? []) : [];
    const anchor = anchors[i]?.tools.get(ctx.tool.name);
    const to = { page: "changelog" as const, ...(anchor === undefined ? {} : { anchor }) };
    return changes.map((c): Row => ({ cells: [[link(releaseTitle(release), to)], [levelBadge(c.level)], [text(c.change.message)], whereCell(c)] }));
  });
  if (rows.length === 0) return [];
  return [
    {
      kind: "section",
      id: ctx.id("Changes"),
      level: 2,
      title: [text("Changes")],
      blocks: [{ kind: "table", role: "plain", label: `${ctx.tool.name} changes`, columns: ["Release", "Level", "Change", "Where"], rows }],
    },
  ];
}

function servedSection(ctx: ToolPageContext): Block {
  const listed = listedTool(ctx.tool);
  return {
    kind: "section",
    id: ctx.id("Served schemas"),
    level: 2,
    title: [text("Served schemas")],
    blocks: [
      { kind: "paragraph", content: [text("Exactly as "), code("tools/list"), text(" serves them.")] },
      { kind: "json", label: "inputSchema", id: "served-input-schema", value: listed["inputSchema"] ?? null },
      { kind: "json", label: "outputSchema", id: "served-output-schema", value: listed["outputSchema"] ?? null },
      { kind: "json", label: "The whole tools/list entry", id: "served-tool", value: listed },
    ],
  };
}

function overviewBlocks(ctx: ToolPageContext): Block[] {
  const { tool, catalog } = ctx;
  const lead: Block[] = [
    ...(tool.title === undefined ? [] : [{ kind: "paragraph", content: [text(tool.title)] } as Block]),
    ...(tool.description === undefined ? [] : [{ kind: "markdown", text: tool.description } as Block]),
  ];
  const source: Inline[] = [code(contractFile(catalog, tool.source))];
  return [
    ...lead,
    { kind: "facts", items: [...policyFacts(tool), { label: "Contract", value: source }, { label: "Version", value: [text(String(tool.version))] }] },
    { kind: "section", id: ctx.id("Timeout and retry"), level: 2, title: [text("Timeout and retry")], blocks: [{ kind: "facts", items: timingFacts(tool) }] },
  ];
}

export function toolPage(catalog: Catalog, tool: ToolIR): Page {
  const page = catalog.toolPage(tool.name) ?? (`tools/${toolFileName(tool)}` as PageId);
  const id = idAllocator([...FRAME_IDS, "served-input-schema", "served-output-schema", "served-tool"]);
  const local = (d: Direction): Map<string, string> =>
    new Map(localDefs(tool, d).map(([key]) => [key, id(`${d === "input" ? "Input" : "Output"} definition ${key}`)]));
  const ctx: ToolPageContext = { catalog, tool, page, id, localAnchors: { input: local("input"), output: local("output") } };
  const blocks: Block[] = [
    ...overviewBlocks(ctx),
    directionSection(ctx, "input", "Input"),
    directionSection(ctx, "output", "Output"),
    rejectionsSection(ctx),
    examplesSection(ctx),
    ...changesSection(ctx),
    servedSection(ctx),
  ];
  return { id: page, title: tool.name, badges: [effectBadge(tool.effect), badge(`v${tool.version}`), ...toolBadges(tool)], blocks };
}
