/**
 * The curation file: the import's own settings, written by the user and
 * never by the import, so a re-import after the API description changed
 * keeps every decision in it. It is YAML, checked against
 * schema/openapi-curation.schema.json (the same schema editors use), and a
 * problem in it is a located diagnostic, like a contract's.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ErrorObject } from "ajv";
import { Codes, error } from "../../diagnostics.js";
import type { Diagnostic, SourceLocation } from "../../ir.js";
import { parseYamlSource } from "../../load/yaml-source.js";
import { didYouMean } from "../../load/suggest.js";
import type { Json } from "./model.js";

export const CURATION_SCHEMA_URL = new URL("../../../schema/openapi-curation.schema.json", import.meta.url);

export type Effect = "read" | "write" | "destructive";

export interface RetryCuration {
  readonly attempts: number;
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly budgetMs?: number;
}

export interface AddedParameter {
  readonly in: "path" | "query" | "header" | "cookie";
  readonly schema?: Json;
  readonly required?: boolean;
  readonly description?: string;
}

export interface OperationCuration {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly effect?: Effect;
  readonly idempotent?: boolean;
  /** The header the API reads an idempotency key from: a POST or PATCH that sends one may be retried. */
  readonly idempotencyKey?: string;
  readonly retry?: RetryCuration;
  readonly timeoutMs?: number;
  readonly confirm?: boolean;
  readonly exclude?: boolean;
  readonly drop?: readonly string[];
  readonly set?: Readonly<Record<string, Json>>;
  readonly add?: Readonly<Record<string, AddedParameter>>;
}

export interface Selector {
  readonly tags?: readonly string[];
  readonly operations?: readonly string[];
  readonly paths?: readonly string[];
  readonly methods?: readonly string[];
}

export type CuratedScheme =
  | { readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly name: string }
  | { readonly type: "http"; readonly scheme: "bearer" | "basic" }
  | { readonly type: "oauth2"; readonly tokenUrl: string };

export interface GroupCuration {
  readonly title?: string;
  readonly description: string;
  readonly operations: readonly string[];
}

export interface CurationDefaults {
  readonly timeoutMs?: number;
  readonly retry?: RetryCuration;
  /** The idempotency key header of every POST and PATCH (an operation's own wins). */
  readonly idempotencyKey?: string;
}

export interface Curation {
  readonly id?: string;
  readonly env?: string;
  readonly server?: string;
  readonly maxTools?: number;
  readonly include?: Selector;
  readonly exclude?: Selector;
  readonly defaults?: CurationDefaults;
  readonly securitySchemes?: Readonly<Record<string, CuratedScheme>>;
  readonly security?: readonly (readonly string[])[];
  readonly operations?: Readonly<Record<string, OperationCuration>>;
  readonly groups?: Readonly<Record<string, GroupCuration>>;
}

export interface LoadedCuration {
  readonly curation: Curation;
  /** Where a node is, as `file:line:col`, for problems found later (an operation key that matches nothing). */
  readonly locate: (path: readonly (string | number)[]) => string;
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
let validator: Validator | undefined;

async function curationValidator(): Promise<Validator> {
  if (!validator) {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
    validator = ajv.compile(JSON.parse(readFileSync(CURATION_SCHEMA_URL, "utf8")) as object);
  }
  return validator;
}

function tokensOf(instancePath: string): string[] {
  return instancePath === ""
    ? []
    : instancePath
        .slice(1)
        .split("/")
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Where a node of the file is: the value at `path`, or its key with `key`. */
type Locate = (path: readonly string[], key?: boolean) => SourceLocation;

/** One diagnostic per node: an unknown key at the key (with a suggestion), any other problem at the value. */
function problems(errors: readonly ErrorObject[], locate: Locate): Diagnostic[] {
  const found = new Map<string, Diagnostic>();
  for (const e of errors) {
    if (e.keyword === "if" || e.keyword === "oneOf" || e.keyword === "anyOf") continue;
    const path = tokensOf(e.instancePath);
    if (e.keyword === "additionalProperties") {
      const key = String(e.params.additionalProperty);
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      found.set(`${e.instancePath}/+${key}`, error(locate([...path, key], true), Codes.unknownKey, `unknown key \`${key}\`${didYouMean(key, known)}`));
      continue;
    }
    if (found.has(e.instancePath)) continue;
    const where = path.length === 0 ? "the curation file" : `\`${path.join(".")}\``;
    found.set(e.instancePath, error(locate(path), Codes.invalidValue, `${where} ${e.message ?? "is invalid"}`));
  }
  return [...found.values()];
}

/** Reads the curation file at `path` (shown as `display`); no file is no curation. */
export async function loadCuration(path: string, display: string): Promise<{ loaded?: LoadedCuration; diagnostics: Diagnostic[] }> {
  if (!existsSync(path)) return { loaded: { curation: {}, locate: () => display }, diagnostics: [] };
  const parsed = parseYamlSource(readFileSync(path, "utf8"), display, display);
  if (parsed.diagnostics.length > 0) return { diagnostics: parsed.diagnostics };
  const data = parsed.file.data ?? {};
  const validate = await curationValidator();
  if (!validate(data)) return { diagnostics: problems(validate.errors ?? [], (keys, key = false) => parsed.file.locate(keys, { key })) };
  const locate = (keys: readonly (string | number)[]) => {
    const where = parsed.file.locate(keys, { key: true });
    return `${where.file}:${where.line}:${where.col}`;
  };
  return { loaded: { curation: data as Curation, locate }, diagnostics: [] };
}
