/**
 * `npm run format:runtime`: formats the runtime's sources in the layout a
 * project gets them in (FORMAT_OPTIONS), since a project's copy is the
 * source byte for byte and a stack trace's line in it is the source's line.
 * `--check` formats nothing: it lists the files that are not formatted and
 * exits 1 when there are any.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "prettier";
import { runtimeSourcePaths } from "../generator/emit/runtime-files.js";
import { FORMAT_OPTIONS } from "../generator/format/prettier.js";

const check = process.argv.includes("--check");
const root = fileURLToPath(new URL("..", import.meta.url));
const unformatted: string[] = [];
for (const path of runtimeSourcePaths()) {
  const text = readFileSync(path, "utf8");
  const formatted = await format(text, { ...FORMAT_OPTIONS, parser: "typescript", filepath: path });
  if (formatted === text) continue;
  unformatted.push(relative(root, path));
  if (!check) writeFileSync(path, formatted);
}
for (const path of unformatted) console.log(`${check ? "not formatted" : "formatted"}: ${path}`);
if (check && unformatted.length > 0) process.exitCode = 1;
