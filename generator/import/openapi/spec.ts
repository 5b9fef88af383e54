/**
 * Reads an API description (file or URL, JSON or YAML): documents.ts reads
 * it and every document its `$ref`s reach, under its checks, and
 * @apidevtools/swagger-parser's `bundle` inlines those into the one document
 * (reading nothing itself), so every reference left is a local pointer (a
 * description that is one document of direct local pointers already is one:
 * local-bundle.ts), and
 * `validate` checks it against the OpenAPI schema of its version. A
 * validation failure is a warning, not a stop: real documents often break a
 * rule that does not matter to the import, and every node the import uses is
 * checked again where it is read.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { createRequire } from "node:module";
import type { JsonObject } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { resolveLocalRef } from "../../schema/refs.js";
import type { Reporter } from "../problems.js";
import { bundleOptions, VALIDATE_OPTIONS } from "./document-source.js";
import { readDocuments } from "./documents.js";
import { bundlesUnchanged } from "./local-bundle.js";
import { readOpenApi3 } from "./openapi3.js";
import { readSwagger2 } from "./swagger2.js";
import type { ApiSpec, SpecVersion } from "./model.js";

/**
 * The parser's check of a document against the OpenAPI schema of its version, alone (the
 * function its `validate` calls): with the references in place, `validate` would first copy
 * and walk the whole document to follow none of them (GitHub's description: 1.04 s of CPU
 * through `validate`, 0.57 s alone). Ajv reads the document and changes nothing in it. The
 * parser's version is pinned exactly (package.json), so this path does not move under it.
 */
const validateSchema = createRequire(import.meta.url)("@apidevtools/swagger-parser/lib/validators/schema.js") as (api: unknown) => void;

/** Validation messages listed before the rest are summarized: the first few say what kind of problem it is. */
const VALIDATION_LINES = 5;

function versionOf(doc: JsonObject): SpecVersion | undefined {
  if (doc.swagger === "2.0") return "2.0";
  if (typeof doc.openapi === "string" && /^3\.0\.\d+/.test(doc.openapi)) return "3.0";
  if (typeof doc.openapi === "string" && /^3\.1\.\d+/.test(doc.openapi)) return "3.1";
  return undefined;
}

/** Above this many times its own size, a document is validated with its references left in place. */
const EXPANSION_LIMIT = 16;

/**
 * Whether `doc` with every local `$ref` replaced by its target (as
 * `validate` dereferences it) would be more than EXPANSION_LIMIT times its
 * own size. Each target's expanded size is computed once; a reference met
 * again while its target is being measured (a cycle) counts as itself, as
 * the parser leaves circular references in place. Schemas that each refer to
 * the next one twice double at every level: validating the dereferenced
 * document walked every copy.
 */
function expandsTooFar(doc: JsonObject): boolean {
  const limit = EXPANSION_LIMIT * JSON.stringify(doc).length;
  const sizes = new Map<string, number>();
  const open = new Set<string>();
  const sizeOf = (value: unknown): number => {
    if (Array.isArray(value)) return value.reduce((sum: number, v) => Math.min(limit + 1, sum + sizeOf(v)), 2);
    if (!isJsonObject(value)) return JSON.stringify(value)?.length ?? 0;
    const ref = value.$ref;
    if (typeof ref === "string" && ref.startsWith("#")) {
      const known = sizes.get(ref);
      if (known !== undefined) return known;
      const target = resolveLocalRef(doc, ref);
      if (target === undefined || open.has(ref)) return ref.length;
      open.add(ref);
      const size = sizeOf(target);
      open.delete(ref);
      sizes.set(ref, size);
      return size;
    }
    let sum = 2;
    for (const [key, v] of Object.entries(value)) sum = Math.min(limit + 1, sum + key.length + 3 + sizeOf(v));
    return sum;
  };
  try {
    return sizeOf(doc) > limit;
  } catch {
    // Nested past the stack: far too deep to dereference either.
    return true;
  }
}

/**
 * Validates `doc` against the OpenAPI schema of its version; a failure is one warning.
 *
 * An OpenAPI 3.x document is validated with its references in place (Reference Objects are
 * valid wherever they stand): the parser's checks beyond the schema are Swagger 2.0's alone,
 * and following the references validated each shared component again at every reference to
 * it (GitHub's description: 2.3 s of CPU dereferenced, 0.6 s in place). What is lost, a
 * reference to the wrong kind of object, the import finds where it reads that node. A
 * Swagger 2.0 document is validated dereferenced, for those checks, unless it fans out.
 */
async function validationProblems(doc: JsonObject, version: SpecVersion, report: Reporter): Promise<void> {
  // Dereferenced, a document whose references fan out is exponentially larger: validated with its references in place, and without the Swagger 2.0 checks that need them followed.
  const inPlace = version !== "2.0" || expandsTooFar(doc);
  if (version === "2.0" && inPlace) {
    report.warn(
      "",
      `the document's references expand it more than ${EXPANSION_LIMIT} times over (shared schemas referring to each other many times), so it is validated against its OpenAPI schema with its references in place`,
    );
  }
  try {
    if (version !== "2.0") validateSchema(doc);
    else {
      // validate dereferences in place; the import reads the bundled document, with its references.
      const options = inPlace
        ? { ...VALIDATE_OPTIONS, dereference: { excludedPathMatcher: () => true }, validate: { schema: true, spec: false } }
        : VALIDATE_OPTIONS;
      await SwaggerParser.validate(structuredClone(doc) as never, options as never);
    }
  } catch (e) {
    const lines = (e instanceof Error ? e.message : String(e))
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    const shown = lines.slice(0, VALIDATION_LINES + 1).join("; ");
    const more = lines.length > VALIDATION_LINES + 1 ? ` (and ${lines.length - VALIDATION_LINES - 1} more lines)` : "";
    report.warn(
      "",
      `the document does not validate against its OpenAPI schema: ${shown}${more}; imported anyway, each node the import uses is checked where it is read`,
    );
  }
}

/**
 * Reads and bundles `location` (an absolute path or an http(s) URL);
 * undefined after reporting why not. What is read, and from where, is
 * decided by documents.ts; the parser bundles those documents and reads
 * nothing itself (document-source.ts).
 */
export async function readSpec(
  location: string,
  report: Reporter,
  options: { readonly cwd: string; readonly allowRefOutside?: boolean },
): Promise<ApiSpec | undefined> {
  const read = await readDocuments({ location, display: report.file, cwd: options.cwd, allowRefOutside: options.allowRefOutside ?? false });
  if (read.problems.length > 0 || read.root === undefined) {
    report.problems.push(...read.problems);
    return undefined;
  }
  let bundled: unknown;
  try {
    // parse checks the version and fixes relative servers as bundle would; bundling is skipped when it would change nothing.
    const parsed: unknown = await SwaggerParser.parse(location, bundleOptions(read.documents) as never);
    bundled = read.documents.size === 1 && bundlesUnchanged(parsed) ? parsed : await SwaggerParser.bundle(location, bundleOptions(read.documents) as never);
  } catch (e) {
    report.error("", `cannot read the API description: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  if (!isJsonObject(bundled)) {
    report.error("", "the API description is not an object");
    return undefined;
  }
  const version = versionOf(bundled);
  if (version === undefined) {
    report.error(
      "",
      `not a Swagger 2.0 or OpenAPI 3.0/3.1 document (swagger: ${JSON.stringify(bundled.swagger)}, openapi: ${JSON.stringify(bundled.openapi)})`,
    );
    return undefined;
  }
  await validationProblems(bundled, version, report);
  return version === "2.0" ? readSwagger2(bundled, report) : readOpenApi3(bundled, version, report);
}
