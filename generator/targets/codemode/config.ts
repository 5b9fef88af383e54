/**
 * The `codemode:` section of toolc.config.yaml: `true` writes codemode.ts,
 * `false` (or no section) does not; a mapping turns it on and may name the
 * global the declaration text gives the tools (`namespace`, default `tools`).
 * Every problem is located at the key or value it is about.
 */
import { Codes, error } from "../../diagnostics.js";
import type { Diagnostic } from "../../ir.js";
import type { ConfigContext } from "../target.js";

/** What the codemode target writes with: plain data, carried in the emit options. */
export interface CodeModeOptions {
  /** The global the tools are under in the declaration text and in a sandbox: `tools.getOrder(...)`. */
  readonly namespace: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Globals a namespace must not replace in a script's runtime. */
const TAKEN = new Set(["globalThis", "console", "Promise", "Error", "ToolCallError", "Object", "JSON", "Math", "Array", "String", "Number", "Boolean", "Date"]);

export function parseCodeModeConfig(value: unknown, ctx: ConfigContext): { options?: CodeModeOptions; diagnostics: Diagnostic[] } {
  if (value === false) return { diagnostics: [] };
  if (value === true) return { options: { namespace: "tools" }, diagnostics: [] };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return {
      diagnostics: [
        error(ctx.locate(["codemode"]), Codes.invalidValue, `\`codemode\` must be true, false or a mapping with \`namespace\`, not ${JSON.stringify(value)}`),
      ],
    };
  const out: Diagnostic[] = [];
  const section = value as Record<string, unknown>;
  for (const key of Object.keys(section))
    if (key !== "namespace")
      out.push(error(ctx.locate(["codemode", key], { key: true }), Codes.unknownKey, `unknown key \`${key}\` in \`codemode\`; it takes namespace`));
  const namespace = section.namespace ?? "tools";
  if (typeof namespace !== "string" || !IDENTIFIER.test(namespace) || TAKEN.has(namespace))
    out.push(
      error(
        ctx.locate(["codemode", "namespace"]),
        Codes.invalidValue,
        `\`codemode.namespace\` must be a JavaScript identifier that is not a standard global, not ${JSON.stringify(namespace)}`,
      ),
    );
  if (out.length > 0) return { diagnostics: out };
  return { options: { namespace: namespace as string }, diagnostics: [] };
}
