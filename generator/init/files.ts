/**
 * How `toolc init` touches files: a new file is created only where none
 * exists, and is formatted with the project's own prettier config (it is the
 * user's file from then on); a line-based file (.gitattributes,
 * .prettierignore) only gets the lines it lacks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export type ActionStatus = "created" | "updated" | "kept" | "unchanged" | "skipped";

export interface Action {
  readonly status: ActionStatus;
  /** Absolute path. */
  readonly path: string;
  readonly detail?: string;
}

/** A file init would create, and the text it would hold. */
export interface NewFile {
  readonly path: string;
  readonly text: string;
}

/** The text formatted as the project's prettier config says (prettier's defaults without one). */
async function formatted(path: string, text: string): Promise<string> {
  const prettier = await import("prettier");
  try {
    const options = (await prettier.resolveConfig(path, { editorconfig: true })) ?? {};
    return await prettier.format(text, { ...options, filepath: path });
  } catch {
    // A config that needs a plugin toolc does not have: the file stays as written.
    return text;
  }
}

/** Creates the file unless something is already there. */
export async function createIfAbsent(file: NewFile): Promise<Action> {
  if (existsSync(file.path)) return { status: "kept", path: file.path, detail: "exists; not touched" };
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, await formatted(file.path, file.text), { flag: "wx" });
  return { status: "created", path: file.path };
}

/** Appends the lines the file lacks (compared without surrounding blanks); creates it when absent. */
export function addLines(path: string, lines: readonly string[], heading: string): Action {
  const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  const present = new Set((current ?? "").split(/\r?\n/).map((l) => l.trim()));
  const missing = lines.filter((l) => !present.has(l));
  if (missing.length === 0) return { status: "unchanged", path, detail: "already lists toolc's folders" };
  const separator = current === undefined || current === "" ? "" : current.endsWith("\n") ? "\n" : "\n\n";
  writeFileSync(path, `${current ?? ""}${separator}${heading}\n${missing.join("\n")}\n`);
  return { status: current === undefined ? "created" : "updated", path, detail: missing.join(", ") };
}
