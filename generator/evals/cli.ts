/**
 * `toolc evals [--out DIR] [--definitions DIR] [--config FILE]`: writes the
 * eval pack of the project's contracts (docs/agent-loop.md#the-eval-pack)
 * into DIR: one `<tool>.jsonl` per tool, and the adapters that run it.
 * Written as generate writes its output (write/apply.ts): every file or
 * none, so a failure leaves the folder as it was.
 */
import { relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { argsError } from "../commands/usage.js";
import type { Io } from "../commands/io.js";
import { resolveSettings } from "../config/settings.js";
import { Codes, formatDiagnostic, hasErrors } from "../diagnostics.js";
import { sideFromTexts } from "../diff/sources.js";
import { readDefinitionTexts } from "../load/files.js";
import { normalizeOptionsOf } from "../normalize/access.js";
import { definitionsIn } from "../targets/catalog/bases.js";
import { applyOutput, WriteError } from "../write/apply.js";
import { planOutput } from "../write/output.js";
import { evalPackFiles } from "./index.js";
import { toolFileName } from "../emit/ts-names.js";

/** Where the pack goes when --out does not say. */
export const DEFAULT_EVALS_OUT = "evals";

const USAGE = `Usage: toolc evals [--out DIR] [--definitions DIR] [--config FILE]

Writes an eval pack of the contracts: per tool, <tool>.jsonl with the cases derived from its
examples and description (the expected call, the correction of an invalid call, the calls that
must not happen, the five failure scenarios of the agent loop against a scripted handler), and
the adapters that run them: play.mjs (any test runner) and a promptfoo config. The case format
is in docs/agent-loop.md.

Options:
  --out DIR          the pack's folder (default: ${DEFAULT_EVALS_OUT})
  --definitions DIR  the contracts (default: definitions)
  --config FILE      the config file (default: toolc.config.yaml, if present)
`;

const OPTIONS = {
  out: { type: "string" },
  definitions: { type: "string" },
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function evalsCommand(argv: readonly string[], io: Io, cwd: string): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS }).values;
  } catch (e) {
    return (io.err(`toolc evals: ${argsError(e, OPTIONS)}\n\n${USAGE}`), 2);
  }
  if (values.help) return (io.out(USAGE), 0);
  const resolved = await resolveSettings(cwd, {
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.definitions === undefined ? {} : { definitions: values.definitions }),
  });
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.usage !== undefined) return (io.err(`toolc evals: ${resolved.usage}\n`), 2);
  if (!resolved.settings) return (io.err("toolc: the config file has errors; nothing was written\n"), 1);
  const settings = resolved.settings;
  const where = definitionsIn(settings.root, settings.definitions);
  const texts = readDefinitionTexts(settings.definitions, settings.root) ?? [];
  const side = sideFromTexts(texts, where, normalizeOptionsOf(settings));
  for (const d of side.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (!side.side || hasErrors(side.diagnostics)) return (io.err("toolc evals: the contracts have errors; nothing was written\n"), 1);
  const out = resolve(cwd, values.out ?? DEFAULT_EVALS_OUT);
  const files = evalPackFiles(side.side.ir);
  const layout = { out };
  // The pack's own files only: the folder may hold the user's files, or anything else with toolc's header, and none is removed.
  const plan = { ...planOutput(files, layout), stale: [] };
  try {
    applyOutput(plan, layout);
  } catch (e) {
    if (!(e instanceof WriteError)) throw e;
    io.err(`${formatDiagnostic({ file: e.path, line: 1, col: 1, code: Codes.writeFailed, message: `cannot write: ${e.reason}`, severity: "error" })}\n`);
    return (io.err("toolc evals: could not write the pack; nothing was changed\n"), 1);
  }
  const packs = files.filter((f) => f.path.endsWith(".jsonl"));
  const cases = packs.reduce((n, f) => n + f.text.split("\n").length - 1, 0);
  const tools = side.side.ir.tools.length;
  const toolsText = (n: number) => `${n} ${n === 1 ? "tool" : "tools"}`;
  const covered = packs.length === tools ? toolsText(tools) : `${packs.length} of ${toolsText(tools)}`;
  io.out(`toolc evals: ${cases} cases for ${covered} written to ${relative(cwd, out).split(sep).join("/") || "."}\n`);
  // Every case derives from a contract's examples (an imported API's contracts have none): say which tools got nothing, so a pack for 1 of 25 tools is not read as the whole.
  const packed = new Set(packs.map((f) => f.path.slice(0, -".jsonl".length)));
  const bare = side.side.ir.tools.filter((tool) => !packed.has(toolFileName(tool))).map((tool) => tool.name);
  if (bare.length > 0) {
    const shown = bare.slice(0, 5).join(", ") + (bare.length > 5 ? `, … ${bare.length - 5} more` : "");
    io.out(
      `toolc evals: no cases for ${toolsText(bare.length)} without \`examples\` in their contracts (${shown}); add examples to test them (docs/agent-loop.md)\n`,
    );
  }
  return 0;
}
