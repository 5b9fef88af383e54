/**
 * The index of tools, searchable and filterable by effect, and the page of
 * named types (each with its schema table and the tools that use it).
 */
import type { Effect, ToolIR } from "../../ir.js";
import { defsEntryName } from "../../schema/refs.js";
import { contractFile, type Catalog } from "./context.js";
import { code, joined, link, markdown, text, type Block, type Inline, type Page, type Row } from "./model.js";
import { rootSummary, SCHEMA_COLUMNS, schemaRows, type RefResolver } from "./schema-rows.js";
import { effectBadge, scopesOf, toolBadges } from "./tool-facts.js";

const EFFECTS: readonly Effect[] = ["read", "write", "destructive"];

/** What the index's search matches: the name, title, description and scopes, in lower case. */
function searchText(tool: ToolIR): string {
  return [tool.name, tool.title ?? "", tool.description ?? "", ...scopesOf(tool)].join(" ").toLowerCase().replace(/\s+/g, " ");
}

function toolRow(catalog: Catalog, tool: ToolIR, withScopes: boolean): Row {
  const page = catalog.toolPage(tool.name);
  const name: Inline = page === undefined ? code(tool.name) : link(tool.name, { page }, { code: true });
  const scopes = withScopes
    ? [
        joined(
          scopesOf(tool).map((s) => [code(s)]),
          ", ",
        ),
      ]
    : [];
  return {
    cells: [
      [name],
      [text(tool.title ?? "")],
      [effectBadge(tool.effect)],
      ...scopes,
      [text(String(tool.version))],
      joined(
        toolBadges(tool).map((b) => [b]),
        " ",
      ),
      [markdown(tool.description ?? "")],
    ],
    filter: { effect: tool.effect, text: searchText(tool) },
  };
}

function effectCounts(tools: readonly ToolIR[]): Inline[] {
  const parts = EFFECTS.map((effect) => [text(`${tools.filter((t) => t.effect === effect).length} `), effectBadge(effect)]);
  return [text(`${tools.length} ${tools.length === 1 ? "tool" : "tools"}: `), ...joined(parts, ", "), text(".")];
}

export function indexPage(catalog: Catalog): Page {
  const withScopes = catalog.tools.some((t) => scopesOf(t).length > 0);
  const columns = ["Tool", "Title", "Effect", ...(withScopes ? ["Scopes"] : []), "Version", "Notes", "Description"];
  const blocks: Block[] = [
    { kind: "paragraph", content: effectCounts(catalog.tools) },
    { kind: "tool-filter", total: catalog.tools.length },
    { kind: "table", role: "tools", label: "Tools", columns, rows: catalog.tools.map((t) => toolRow(catalog, t, withScopes)) },
  ];
  return { id: "index", title: catalog.options.title, badges: [], blocks };
}

/** Every tool that uses a named type, with the directions it appears in. */
function usersOf(catalog: Catalog, typeName: string): Inline[][] {
  const out: Inline[][] = [];
  for (const tool of catalog.tools) {
    const uses = (["input", "output"] as const).filter((d) =>
      Object.values(d === "input" ? tool.inputDefs : tool.outputDefs).some((o) => o.kind === "named" && o.name === typeName),
    );
    const page = catalog.toolPage(tool.name);
    if (uses.length > 0 && page !== undefined) out.push([link(tool.name, { page }, { code: true }), text(` (${uses.join(", ")})`)]);
  }
  return out;
}

function typeResolver(catalog: Catalog): RefResolver {
  return (ref) => {
    const key = defsEntryName(ref);
    const anchor = key === undefined ? undefined : catalog.typeAnchor(key);
    return key === undefined || anchor === undefined ? undefined : { name: key, to: { page: "types", anchor } };
  };
}

export function typesPage(catalog: Catalog): Page {
  const resolve = typeResolver(catalog);
  const sections = catalog.types.map(({ type, file, anchor }): Block => {
    const users = usersOf(catalog, type.name);
    return {
      kind: "section",
      id: anchor,
      level: 2,
      title: [text(type.name)],
      blocks: [
        ...(type.description === undefined ? [] : [{ kind: "markdown", text: type.description } as Block]),
        {
          kind: "facts",
          items: [
            { label: "Declared in", value: [code(contractFile(catalog, file.source))] },
            { label: "Used by", value: users.length === 0 ? [text("no tool")] : joined(users, ", ") },
          ],
        },
        { kind: "paragraph", content: [text("Root: "), ...rootSummary(type.schema, resolve)] },
        { kind: "table", role: "schema", label: `Type ${type.name}`, columns: SCHEMA_COLUMNS, rows: schemaRows(type.schema, resolve) },
      ],
    };
  });
  const intro: Block = {
    kind: "paragraph",
    content: [
      text("The named types of the types files. A tool's schema links here wherever it uses one; every tool serves them inlined under "),
      code("$defs"),
      text("."),
    ],
  };
  return { id: "types", title: "Types", badges: [], blocks: [intro, ...sections] };
}
