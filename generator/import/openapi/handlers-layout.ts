/**
 * The handlers module's factory (its `OpenApiHandlers` type and
 * `createOpenApiHandlers`) in prettier's layout, printed line by line for an
 * API of many tools instead of by running prettier over it: on GitHub's
 * 1,223 tools prettier took most of a second to load and lay out what is
 * the same few line shapes per tool. Each handler takes the first of
 * prettier's layouts that fits in 80 columns (on one line; broken after the
 * arrow; the call's arguments one per line), and the type's union, too long
 * for any line, is one member per line. Anything else (a handler no layout
 * fits, a short union, an unusual tool name or imported name) is left to
 * prettier. test/import/openapi/handlers-layout.test.ts checks the text is
 * prettier's on arbitrary tool names.
 */
import { literal, propertyKey } from "../../printer/literal.js";

const WIDTH = 80;
/** How far past the width a union must be before it is surely one member per line (the type arguments' brackets and commas aside). */
const UNION_MARGIN = 20;

/** The factory's text before the union of tool names, with the imported names the file builder gives it when nothing clashes. */
const TYPE_HEAD = "/** The tools this API serves, each with its generated handler. */\nexport type OpenApiHandlers = Required<Pick<Handlers, ";
const FUNCTION_HEAD =
  ">>;\n\nexport function createOpenApiHandlers(options: HttpApiOptions = {}): OpenApiHandlers {\n  const http = createHttpApi(description, options, { TransientError });\n  return {\n";

const LAID_OUT_HEAD = `/** The tools this API serves, each with its generated handler. */
export type OpenApiHandlers = Required<
  Pick<
    Handlers,
`;
const LAID_OUT_FUNCTION = `
  >
>;

export function createOpenApiHandlers(
  options: HttpApiOptions = {},
): OpenApiHandlers {
  const http = createHttpApi(description, options, { TransientError });
  return {
`;

/** A tool name whose literal and key prettier prints as the printer does: no quote, escape or `__proto__` to tell apart. */
const PLAIN_NAME = /^[A-Za-z0-9_-]+$/;

/** One handler in the first of prettier's layouts that fits, or undefined when none does. */
function handler(name: string): string | undefined {
  const key = propertyKey(name);
  const operation = `operations[${literal(name)}]`;
  const line = `    ${key}: (input, ctx) => http.call(${operation}, input, ctx),`;
  if (line.length <= WIDTH) return line;
  const head = `    ${key}: (input, ctx) =>`;
  if (head.length > WIDTH) return undefined;
  const body = `      http.call(${operation}, input, ctx),`;
  if (body.length <= WIDTH) return `${head}\n${body}`;
  if (`        ${operation},`.length > WIDTH) return undefined;
  return `${head}\n      http.call(\n        ${operation},\n        input,\n        ctx,\n      ),`;
}

/**
 * `source` (the factory as handlers.ts prints it, for tools `names` in that
 * order) as prettier lays it out, without prettier's final line break; or
 * undefined when it is not one of the shapes above.
 */
export function factoryLayout(source: string, names: readonly string[]): string | undefined {
  if (names.some((name) => !PLAIN_NAME.test(name) || name === "__proto__")) return undefined;
  const union = names.map((name) => literal(name)).join(" | ");
  const calls = names.map((name) => `    ${propertyKey(name)}: (input, ctx) => http.call(operations[${literal(name)}], input, ctx),`);
  if (source !== `${TYPE_HEAD}${union}${FUNCTION_HEAD}${calls.join("\n")}\n  };\n}`) return undefined;
  // A union that might fit on a line at the type arguments' indentation is left to prettier, which has other shapes for it.
  if (`    ${union}`.length <= WIDTH + UNION_MARGIN) return undefined;
  const handlers: string[] = [];
  for (const name of names) {
    const text = handler(name);
    if (text === undefined) return undefined;
    handlers.push(text);
  }
  const members = names.map((name) => `    | ${literal(name)}`).join("\n");
  return `${LAID_OUT_HEAD}${members}${LAID_OUT_FUNCTION}${handlers.join("\n")}\n  };\n}`;
}
