/**
 * `format` values toolc has no checker for. Ajv in strict mode throws on the
 * first one it meets, with text that says the format is "ignored"; here every
 * one is an error, located at its value, with a suggestion, and reported with
 * the file's other problems rather than after they are fixed.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonPath, JsonSchema } from "../ir.js";
import { forEachSchema } from "../schema/walk.js";
import { formats } from "../runtime/formats.js";
import { didYouMean } from "./suggest.js";
import type { YamlSource } from "./yaml-source.js";
import { isJsonObject } from "../schema/json.js";

/** The formats toolc checks: the runtime's checkers (JSON Schema 2020-12 Validation §7.3). */
export const SUPPORTED_FORMATS: readonly string[] = Object.keys(formats);

export function checkFormats(schema: JsonSchema, root: JsonPath, file: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  forEachSchema(schema, root, (node, path) => {
    const format = node.format;
    if (typeof format !== "string" || SUPPORTED_FORMATS.includes(format)) return;
    const suggestion = didYouMean(format, SUPPORTED_FORMATS);
    const message = `unknown format ${JSON.stringify(format)}${suggestion === "" ? ";" : suggestion} toolc checks ${SUPPORTED_FORMATS.join(", ")} (a format it cannot check would let any string through)`;
    out.push(error(file.locate([...path, "format"]), Codes.unknownFormat, message));
  });
  return out;
}

/** The unknown formats of every schema in a definition file: a tool's input and output, or a types file's types. */
export function checkFileFormats(file: YamlSource): Diagnostic[] {
  const data = file.data;
  if (!isJsonObject(data)) return [];
  if (isJsonObject(data.types)) return Object.entries(data.types).flatMap(([name, schema]) => checkFormats(schema as JsonSchema, ["types", name], file));
  return (["input", "output"] as const).flatMap((key) => (isJsonObject(data[key]) ? checkFormats(data[key], [key], file) : []));
}
