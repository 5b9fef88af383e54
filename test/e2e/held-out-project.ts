/**
 * The held-out project: contracts this repository does not ship, written as
 * YAML and compiled by the real CLI into a scratch project, plus a module
 * that uses the generated types the way a consumer would.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectWith, ROOT, runCli } from "../compiler/helpers.js";

export const PROTO_NAMES = `name: proto_names
version: 1
description: Names that live on Object.prototype, as ordinary properties.
effect: read
input:
  type: object
  properties:
    constructor: { type: string, maxLength: 10 }
    toString: { type: string, maxLength: 10 }
    valueOf: { type: string, maxLength: 10, default: dflt }
    hasOwnProperty: { type: string, maxLength: 10 }
  required: [constructor, toString]
output:
  type: object
  properties:
    hasOwnProperty: { type: string }
    valueOf: { type: string }
  required: [hasOwnProperty]
`;

/** The same list twice, once with uniqueItems: the second is the baseline of the same size. */
function listTool(name: string, unique: boolean): string {
  return `name: ${name}
version: 1
description: A list of tags or records.
effect: read
input:
  type: object
  properties:
    tags: { type: array, maxItems: 100000${unique ? ", uniqueItems: true" : ""}, items: { anyOf: [{ type: string, maxLength: 20 }, { type: object, properties: { id: { type: integer } }, required: [id] }] } }
  required: [tags]
output: { type: object }
`;
}

/** Uses the inherited names as ordinary properties, under strict flags: compiled, never run. */
export const USE_TS = `import { execute, type Handlers } from "./generated/index.js";
const handlers: Handlers = {
  proto_names: (input) => {
    // Each must be typed as the declared string, not as the inherited method.
    const c: string = input.constructor;
    const t: string = input.toString;
    const v: string = input.valueOf;
    return { hasOwnProperty: c + t + v, ...(input.hasOwnProperty === undefined ? {} : { valueOf: input.hasOwnProperty }) };
  },
  unique_list: () => ({}),
  plain_list: () => ({}),
};
void execute("proto_names", { constructor: "c", toString: "t" }, handlers);
`;

/** Generates the held-out project (SDK 1.x clients), then makes it an ES module package with toolc's node_modules and writes use.ts; throws if generate fails. */
export async function heldOutProject(): Promise<string> {
  const dir = projectWith({ "proto_names.yaml": PROTO_NAMES, "unique_list.yaml": listTool("unique_list", true), "plain_list.yaml": listTool("plain_list", false) });
  // The project's clients are SDK 1.x ones; a folder without a package.json would get the 2.x line.
  const result = await runCli(dir, ["generate", "--mcp-sdk", "1"]);
  if (result.code !== 0) throw new Error(result.stderr);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  // An ES module package, as the consumer that compiles use.ts under verbatimModuleSyntax is.
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, "use.ts"), USE_TS);
  return dir;
}
