/**
 * Reading `toolc.config.yaml`: found from the working directory upwards (up
 * to the nearest package.json), parsed with positions, and checked against
 * the JSON Schema shipped for editors (schema/config.schema.json). That
 * schema is the one list of keys: a section is added there, and read in
 * settings.ts. Every problem is a located diagnostic, like a contract's.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { ErrorObject } from "ajv";
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, SourceLocation } from "../ir.js";
import { didYouMean } from "../load/suggest.js";
import type { AuthConfigValues } from "./auth.js";
import type { RateLimitValues } from "./rate-limit.js";
import type { LoadingConfigValues } from "./loading.js";

export const CONFIG_FILE = "toolc.config.yaml";
export const CONFIG_SCHEMA_URL = new URL("../../schema/config.schema.json", import.meta.url);

/** The values of a valid config file, as written (paths relative to the file's folder). */
export interface ConfigValues {
  readonly definitions?: string;
  readonly out?: string;
  readonly tests?: string | false;
  readonly handlers?: string;
  /** The kinds of tool whose handlers the contract tests run too: by default no destructive or confirmed tool's. */
  readonly runInTests?: readonly ("destructive" | "confirmed")[];
  /** The MCP side of the output: which SDK line it targets, and the caching hint of the served tool list. */
  readonly mcp?: { readonly sdk?: 1 | 2; readonly cache?: { readonly ttlMs?: number; readonly cacheScope?: "public" | "private" } };
  readonly providers?: boolean;
  /** Which tools the provider exports defer to tool search, by folder (config/loading.ts). */
  readonly loading?: LoadingConfigValues;
  /** The Streamable HTTP server as an OAuth resource server; checked further by config/auth.ts. */
  readonly auth?: AuthConfigValues;
  /** Every tool's rate limit unless its contract declares one (normalize/access.ts). */
  readonly rateLimit?: RateLimitValues;
  /** The tool catalog: its folder, title and changelog bases. */
  readonly docs?: { readonly out: string; readonly title?: string; readonly changelog?: readonly string[] };
  /** `toolc diff`'s rule exceptions, checked by generator/diff/config.ts. */
  readonly diff?: unknown;
  /** Warnings silenced by code and folder, checked by config/diagnostics-ignore.ts. */
  readonly diagnostics?: unknown;
}

export interface LoadedConfig {
  /** Absolute path of the file. */
  readonly path: string;
  readonly values: ConfigValues;
  /** Where a top-level key's value is, for diagnostics about it. */
  locate(key: keyof ConfigValues): SourceLocation;
  /** Where any node below the root is; `key` points at a map key rather than its value. */
  locatePath(path: readonly (string | number)[], options?: { key?: boolean }): SourceLocation;
}

/**
 * Sections whose insides a parser of their own checks, with messages that know
 * their vocabulary (rule ids with did-you-mean); the schema checks only that
 * they are maps, and still describes them in full for editors.
 */
const OWN_PARSER_SECTIONS: ReadonlySet<string> = new Set(["diff", "diagnostics"]);

/**
 * The config file for a run started in `cwd`: the first toolc.config.yaml
 * in `cwd` or a folder above it. The search stops at the first folder with a
 * package.json, so a package never picks up a config that belongs to an
 * enclosing repository.
 */
export function findConfig(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(dir, "package.json")) || dirname(dir) === dir) return undefined;
  }
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
interface ConfigSchema {
  readonly properties: Record<string, { readonly "x-expects"?: string; readonly "x-target"?: string; readonly properties?: Record<string, unknown> }>;
}

let compiled: { validate: Validator; schema: ConfigSchema } | undefined;

async function configValidator(): Promise<{ validate: Validator; schema: ConfigSchema }> {
  if (!compiled) {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_URL, "utf8")) as ConfigSchema;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    compiled = { validate: ajv.compile(schema), schema };
  }
  return compiled;
}

/** One diagnostic per offending key: Ajv may report a key twice (its type, then its `if`). */
function problems(errors: readonly ErrorObject[], schema: ConfigSchema, at: (path: string[], key?: boolean) => SourceLocation, data: unknown): Diagnostic[] {
  const found = new Map<string, Diagnostic>();
  const keys = Object.keys(schema.properties);
  for (const e of errors) {
    if (e.keyword === "if") continue;
    const section = e.instancePath.split("/")[1];
    // A section a target parses (`x-target`: generator/targets/) is checked there, with located messages of its own.
    const ownParser = section !== undefined && (OWN_PARSER_SECTIONS.has(section) || schema.properties[section]?.["x-target"] !== undefined);
    if (ownParser && (e.instancePath.split("/").length > 2 || e.keyword !== "type")) continue;
    if (e.keyword === "additionalProperties") {
      const key = String(e.params.additionalProperty);
      // An unknown key inside a section (`auth`, `mcp`) is named and located there, with that section's keys to suggest.
      const inside = e.instancePath.split("/").slice(1);
      const known = inside.length === 1 && section !== undefined ? Object.keys(schema.properties[section]?.properties ?? {}) : inside.length === 0 ? keys : [];
      const where = inside.length === 0 ? CONFIG_FILE : `\`${inside.join(".")}\``;
      found.set(
        `+${inside.join("/")}/${key}`,
        error(at([...inside, key], true), Codes.unknownKey, `unknown key \`${key}\` in ${where}${didYouMean(key, known)}`),
      );
      continue;
    }
    const key = e.instancePath.split("/")[1];
    if (key === undefined) {
      found.set("", error(at([]), Codes.invalidValue, `${CONFIG_FILE} must be a mapping of settings (${keys.join(", ")})`));
    } else if (!found.has(key)) {
      const value = (data as Record<string, unknown>)[key];
      const expects = schema.properties[key]?.["x-expects"] ?? "a valid value";
      found.set(key, error(at([key]), Codes.invalidValue, `\`${key}\` must be ${expects}, not ${JSON.stringify(value)}`));
    }
  }
  return [...found.values()];
}

/** Reads and checks a config file; `display` is how diagnostics name it. */
export async function loadConfig(path: string, displayRoot: string): Promise<{ config?: LoadedConfig; diagnostics: Diagnostic[] }> {
  const display = relative(displayRoot, path).split(sep).join("/") || CONFIG_FILE;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { diagnostics: [error({ file: display, line: 1, col: 1 }, Codes.configNotFound, `config file not found: ${display}`)] };
  }
  return parseConfig(text, path, display);
}

/** Checks a config file's text, read from disk or (toolc diff's git base) from a commit; `display` is how diagnostics name it. */
export async function parseConfig(text: string, path: string, display: string): Promise<{ config?: LoadedConfig; diagnostics: Diagnostic[] }> {
  // Loaded here, not at the top: a run without a config file never needs the YAML parser or Ajv.
  const [{ parseYamlSource }, { validate, schema }] = await Promise.all([import("../load/yaml-source.js"), configValidator()]);
  const parsed = parseYamlSource(text, CONFIG_FILE, display);
  if (parsed.diagnostics.length > 0) return { diagnostics: parsed.diagnostics };
  // An empty file is a valid config: every setting takes its default.
  const data = parsed.file.data ?? {};
  const at = (keys: string[], key = false): SourceLocation => parsed.file.locate(keys, { key });
  const found = validate(data) ? [] : problems(validate.errors ?? [], schema, at, data);
  if (found.length > 0) return { diagnostics: found };
  const locatePath = (path: readonly (string | number)[], options?: { key?: boolean }): SourceLocation => parsed.file.locate(path, options);
  return { config: { path, values: data as ConfigValues, locate: (key) => at([key]), locatePath }, diagnostics: [] };
}
