/**
 * The files an OpenAPI import writes, and the writing: contracts in the
 * definitions folder, the handlers module and its runtime. A contract file
 * that exists and was not written by an import of the same API is kept
 * unless --force; one that an earlier import of this API wrote and no tool
 * produces any more is removed. Each file goes to a temporary name first and
 * is renamed, so no reader sees half a file; nothing is written when any
 * file cannot be planned.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { Problem } from "../problems.js";
import { contractYaml, YamlMismatchError } from "../yaml.js";
import type { OpenApiTool } from "./contract.js";
import { emitHandlers, emitRuntime, RUNTIME_FILE } from "./handlers.js";
import type { ApiSpec, SecurityScheme } from "./model.js";
import { shareComponents, type TypesFile } from "./shared-types.js";

export interface PlannedFile {
  /** Absolute path. */
  readonly path: string;
  /** The text, or null to remove the file. */
  readonly text: string | null;
}

export interface FilePlan {
  readonly cwd: string;
  readonly out: string;
  readonly generated: string;
  readonly handlers: string;
  readonly id: string;
  readonly env: string;
  readonly spec: ApiSpec;
  readonly specDisplay: string;
  readonly schemes: Readonly<Record<string, SecurityScheme>>;
  readonly tools: readonly OpenApiTool[];
  readonly server: string | undefined;
  readonly force: boolean;
  /** A tool whose contract cannot be written: it is left out (of the handlers too), the others are written. */
  readonly unwritable: (tool: OpenApiTool, message: string) => void;
}

const MARKER = /^# toolc import: openapi (\S+);/m;

/** The API id an earlier import wrote into a contract's comments, if any. */
export function importedBy(text: string): string | undefined {
  return MARKER.exec(text.split("\n").slice(0, 3).join("\n"))?.[1];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function problem(file: string, message: string): Problem {
  return { severity: "error", file, pointer: "", message };
}

function relativeModule(from: string, to: string): string {
  const rel = relative(dirname(from), to).split(sep).join("/").replace(/\.ts$/, "");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** The largest contract file an import writes: a description can make one contract huge (a vast example, a bomb of aliases), and a contract that size is no tool a model can use. */
export const MAX_CONTRACT_BYTES = 1024 * 1024;

/** A contract's file text, or the error (at its operation in the description) that keeps it from being written. */
/** The contract's YAML; a Problem when it is over the size bound; undefined when it does not read back, reported for that operation alone (plan.unwritable), the others written. */
function contractText(tool: OpenApiTool, plan: FilePlan, original: OpenApiTool): string | Problem | undefined {
  const at = (message: string): Problem => ({
    severity: "error",
    file: plan.specDisplay,
    pointer: tool.operation.pointer,
    message: `${tool.name}: ${message}`,
  });
  let text: string;
  try {
    text = contractYaml({ name: tool.name, contract: tool.contract, notes: tool.notes }, plan.out);
  } catch (e) {
    if (e instanceof YamlMismatchError) return void plan.unwritable(original, e.message);
    return at(e instanceof Error ? e.message : String(e));
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_CONTRACT_BYTES)
    return at(
      `the contract would be ${bytes} bytes, more than the ${MAX_CONTRACT_BYTES} an import writes; shorten its examples or descriptions in the description, or leave the operation out (--exclude op:…)`,
    );
  return text;
}

/** The folder of the types files the components two or more contracts share go to: no contract file (`<tool>.yaml`) can be in it. */
const TYPES_FOLDER = "types";

/**
 * Most characters of schema (as JSON) in one types file. Each types file
 * compiles into one module of types and one of validators, about five times
 * the schema's size, and up to ten times it: at this bound a module stays under 1 MB.
 */
const TYPES_FILE_CHARS = 60_000;

/** The types files, and the removal of those an earlier import of this API wrote that this one does not. */
function typesFiles(plan: FilePlan, files: readonly TypesFile[]): (PlannedFile | Problem)[] {
  const folder = join(plan.out, TYPES_FOLDER);
  const planned: (PlannedFile | Problem)[] = [];
  for (const file of files) {
    const path = join(folder, file.name);
    const existing = readText(path);
    if (existing !== undefined && importedBy(existing) !== plan.id && !plan.force)
      planned.push(problem(relative(plan.cwd, path), `exists and was not written by an import of ${JSON.stringify(plan.id)}; pass --force to overwrite it`));
    else {
      const notes = [`openapi ${plan.id}; a re-import overwrites this file`, "components two or more contracts share, each written once"];
      planned.push({ path, text: contractYaml({ name: file.name, contract: { types: file.types }, notes }, folder) });
    }
  }
  const written = new Set(files.map((f) => f.name));
  const earlier = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(".yaml") && !written.has(f)) : [];
  for (const name of earlier.sort()) if (importedBy(readText(join(folder, name)) ?? "") === plan.id) planned.push({ path: join(folder, name), text: null });
  return planned;
}

export async function planFiles(plan: FilePlan): Promise<PlannedFile[] | Problem[]> {
  const files: PlannedFile[] = [];
  const problems: Problem[] = [];
  const produced = new Set<string>();
  const tools: OpenApiTool[] = [];
  const shared = shareComponents(plan.tools, { folder: TYPES_FOLDER, stem: plan.id.replace(/[^A-Za-z0-9_.-]+/g, "_"), maxChars: TYPES_FILE_CHARS });
  for (const file of typesFiles(plan, shared.files)) {
    if ("severity" in file) problems.push(file);
    else files.push(file);
  }
  for (const [i, tool] of shared.tools.entries()) {
    const path = join(plan.out, `${tool.name}.yaml`);
    produced.add(path);
    const existing = readText(path);
    if (existing !== undefined && importedBy(existing) !== plan.id && !plan.force) {
      problems.push(problem(relative(plan.cwd, path), `exists and was not written by an import of ${JSON.stringify(plan.id)}; pass --force to overwrite it`));
      continue;
    }
    const written = contractText(tool, plan, plan.tools[i]!);
    if (typeof written === "string") {
      files.push({ path, text: written });
      tools.push(tool);
    } else if (written === undefined) produced.delete(path);
    else problems.push(written);
  }
  if (existsSync(plan.out)) {
    for (const name of readdirSync(plan.out)
      .filter((f) => f.endsWith(".yaml"))
      .sort()) {
      const path = join(plan.out, name);
      if (!produced.has(path) && importedBy(readText(path) ?? "") === plan.id) files.push({ path, text: null });
    }
  }
  if (problems.length > 0) return problems;
  const handlersText = await emitHandlers({
    title: plan.spec.title,
    specDisplay: plan.specDisplay,
    envPrefix: plan.env,
    server: plan.server,
    schemes: plan.schemes,
    tools,
    indexModule: relativeModule(plan.handlers, join(plan.generated, "index.ts")),
    extension: ".js",
  });
  files.push({ path: plan.handlers, text: handlersText });
  files.push({ path: join(dirname(plan.handlers), RUNTIME_FILE), text: emitRuntime() });
  return files;
}

export function writePlanned(files: readonly PlannedFile[], cwd: string): { written: string[]; removed: string[]; unchanged: number } {
  const written: string[] = [];
  const removed: string[] = [];
  let unchanged = 0;
  for (const file of files) {
    const shown = relative(cwd, file.path).split(sep).join("/");
    if (file.text === null) {
      rmSync(file.path, { force: true });
      removed.push(shown);
      continue;
    }
    if (readText(file.path) === file.text) {
      unchanged++;
      continue;
    }
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(`${file.path}.tmp`, file.text);
    renameSync(`${file.path}.tmp`, file.path);
    written.push(shown);
  }
  return { written, removed, unchanged };
}
