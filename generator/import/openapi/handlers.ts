/**
 * The handlers module an OpenAPI import writes beside the generated output:
 * one typed handler per tool, each handing its operation's binding to the
 * copied runtime (openapi-http.ts). It sits outside the output folder, so
 * `toolc check` never counts it as foreign, and it exports a factory, so a
 * project's own handlers module spreads it and replaces any handler it
 * wants: `{ ...createOpenApiHandlers(), repos_get: myHandler }`.
 * Every value from the API description reaches the code through the
 * printer's literals; comments get it with line terminators removed. The
 * file builder prints it in prettier's layout: its imports, the description
 * (fittedLiteral) and the operation table (literal, prettier's layout for
 * data). The handler functions, whose lines prettier breaks in ways the
 * printer does not reproduce (a long tool name breaks the arrow function,
 * its call, the member access, the type arguments), are laid out as prettier
 * would by handlers-layout.ts for an API of many tools, and by prettier
 * itself otherwise.
 */
import { readFileSync } from "node:fs";
import { code, FileBuilder, typeSymbol, valueSymbol, type Code, type ImportSymbol } from "../../printer/file-builder.js";
import { fittedLiteral, literal, propertyKey } from "../../printer/literal.js";
import { FORMAT_OPTIONS } from "../../format/prettier.js";
import { factoryLayout } from "./handlers-layout.js";
import type { OpenApiTool } from "./contract.js";
import { isGroupBinding } from "./groups.js";
import { envName, schemeBindings } from "./credentials.js";
import type { SecurityScheme } from "./model.js";

export const RUNTIME_FILE = "openapi-http.ts";
const RUNTIME_URL = new URL(`../../../generator/openapi-runtime/${RUNTIME_FILE}`, import.meta.url);

export interface HandlersModule {
  readonly title: string;
  readonly specDisplay: string;
  readonly envPrefix: string;
  readonly server: string | undefined;
  readonly schemes: Readonly<Record<string, SecurityScheme>>;
  readonly tools: readonly OpenApiTool[];
  /** The generated index module, relative to the handlers file, without extension (`../generated/index`). */
  readonly indexModule: string;
  /** `.js` or `.ts`, as the project's imports end. */
  readonly extension: string;
}

/** Text for a `//` comment: no line terminator can end it early. */
function commentText(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching line-break control characters is the point
  return text.replace(/[\r\n\u000b\u000c\u0085\u2028\u2029]+/g, " ");
}

function environmentLines(module: HandlersModule, bindings: Record<string, unknown>): string[] {
  const lines = [
    `//   ${envName(module.envPrefix, "BASE_URL")}: the server URL${module.server === undefined ? " (required: the description names none)" : ` (default ${module.server})`}`,
  ];
  for (const [name, binding] of Object.entries(bindings)) {
    const env = (binding as { env: unknown }).env;
    const names = typeof env === "string" ? [env] : Object.values(env as Record<string, string>);
    lines.push(`//   ${names.join(", ")}: security scheme ${JSON.stringify(name)}`);
  }
  return lines.map(commentText);
}

/** A tool's handler; a group's picks its member's binding by the `operation` argument. */
function handlerLine(tool: OpenApiTool): string {
  const name = literal(tool.name);
  const binding = isGroupBinding(tool.binding) ? `operations[${name}].group[input.operation]` : `operations[${name}]`;
  return `    ${propertyKey(tool.name)}: (input, ctx) => http.call(${binding}, input, ctx),`;
}

/** What the handlers module imports: the generated index's, and the copied runtime's. */
interface HandlerImports {
  readonly transientError: ImportSymbol;
  readonly handlers: ImportSymbol;
  readonly createHttpApi: ImportSymbol;
  readonly description: ImportSymbol;
  readonly options: ImportSymbol;
}

function handlerImports(module: HandlersModule): HandlerImports {
  const index = `${module.indexModule}${module.extension}`;
  const runtime = `./openapi-http${module.extension}`;
  return {
    transientError: valueSymbol("TransientError", index),
    handlers: typeSymbol("Handlers", index),
    createHttpApi: valueSymbol("createHttpApi", runtime),
    description: typeSymbol("HttpApiDescription", runtime),
    options: typeSymbol("HttpApiOptions", runtime),
  };
}

/** The handler type and factory; the module declares nothing named like an import, so `{ TransientError }` keeps its shorthand. */
function factory(module: HandlersModule, imports: HandlerImports): Code {
  const names = module.tools.map((t) => literal(t.name));
  return code`/** The tools this API serves, each with its generated handler. */
export type OpenApiHandlers = Required<Pick<${imports.handlers}, ${names.length === 0 ? "never" : names.join(" | ")}>>;

export function createOpenApiHandlers(options: ${imports.options} = {}): OpenApiHandlers {
  const http = ${imports.createHttpApi}(description, options, { ${imports.transientError} });
  return {
${module.tools.map(handlerLine).join("\n")}
  };
}`;
}

/** The schemes some tool's operation applies: the module lists (and reads) no variable nothing sends. */
function usedSchemes(module: HandlersModule): Record<string, SecurityScheme> {
  const used = new Set<string>();
  for (const tool of module.tools) {
    const bindings = isGroupBinding(tool.binding) ? Object.values(tool.binding.group) : [tool.binding];
    for (const binding of bindings) for (const name of binding.security.flat()) used.add(name);
  }
  return Object.fromEntries(Object.entries(module.schemes).filter(([name]) => used.has(name)));
}

/** Prettier, loaded only for a factory handlers-layout.ts does not lay out: loading it is a fifth of a second of CPU. */
async function prettierFormat(source: string): Promise<string> {
  const { format } = await import("prettier");
  return format(source, { ...FORMAT_OPTIONS, parser: "typescript" });
}

export async function emitHandlers(module: HandlersModule): Promise<string> {
  const bindings = schemeBindings(module.envPrefix, usedSchemes(module));
  const description = {
    title: module.title,
    serverEnv: envName(module.envPrefix, "BASE_URL"),
    ...(module.server === undefined ? {} : { server: module.server }),
    securitySchemes: bindings,
  };
  const header = [
    commentText(`// Written by toolc import openapi from ${JSON.stringify(module.specDisplay)} (${JSON.stringify(module.title)}). A re-import overwrites it.`),
    "// Replace any handler in your own module: { ...createOpenApiHandlers(), some_tool: yourHandler }.",
    "// Environment:",
    ...environmentLines(module, bindings),
  ];
  // The header's comment is about the environment the imports' runtime reads, so it sits right above them.
  const file = new FileBuilder("openapi-handlers.ts", header.join("\n"), { importOrder: "used", afterHeader: "\n" });
  file.reserve("description", "operations", "OpenApiHandlers", "createOpenApiHandlers");
  const imports = handlerImports(module);
  for (const symbol of [imports.transientError, imports.handlers, imports.createHttpApi, imports.description, imports.options]) file.use(symbol);
  const operations = Object.fromEntries(module.tools.map((t) => [t.name, t.binding]));
  file.add(code`export const description: ${imports.description} = ${fittedLiteral(description)};`);
  // The table is most of the module: printed in prettier's layout for data (literal), not run through prettier, which would take seconds on a large API.
  file.add(code`const operations = ${literal(operations)} as const;`);
  const source = file.print(factory(module, imports));
  const names = module.tools.map((t) => t.name);
  file.add(factoryLayout(source, names) ?? (await prettierFormat(source)).slice(0, -1));
  return file.toText();
}

/** The runtime the handlers call, its source byte for byte (it imports nothing; the source is kept in the layout toolc writes and starts with the line naming it). */
export function emitRuntime(): string {
  return readFileSync(RUNTIME_URL, "utf8");
}
