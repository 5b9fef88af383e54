/**
 * A tool's contract-test table as TypeScript text: one object literal, the
 * argument of the runtime's `runContractTests`, in toolc's fixed style (no
 * formatter runs over it). Each kind of case is present only when it has
 * rows; the runtime declares no suite for a missing one.
 */
import type { JsonValue } from "../../ir.js";
import { jsDoc, literal, propertyKey } from "../../printer/literal.js";
import type { ContractCases } from "./cases.js";

interface Entry {
  readonly key: string;
  /** Why the rows are what they are, as a comment above them. */
  readonly doc: string;
  readonly value: JsonValue;
}

function entries(cases: ContractCases): Entry[] {
  const out: Entry[] = [];
  if (cases.valid.length > 0) {
    const rows = cases.valid.map((c) => ({ name: c.name, input: c.input, resolvedInput: c.resolvedInput, output: c.output }));
    out.push({ key: "validExamples", doc: "The contract's valid examples (one without an output gets a minimal valid one).", value: rows });
  }
  if (cases.validInputOnly.length > 0) {
    const rows = cases.validInputOnly.map((c) => ({ name: c.name, input: c.input }));
    out.push({
      key: "validInputs",
      doc: "Valid examples without an output (none could be made for this tool): checked with the input validator only.",
      value: rows,
    });
  }
  if (cases.invalidExamples.length > 0) {
    const rows = cases.invalidExamples.map((c) => ({ name: c.name, input: c.input, paths: [...c.paths] }));
    out.push({ key: "invalidExamples", doc: "The contract's invalid examples.", value: rows });
  }
  if (cases.rejectedExamples.length > 0) {
    const rows = cases.rejectedExamples.map((c) => ({ name: c.name, input: c.input, resolvedInput: c.resolvedInput, reason: c.reason }));
    out.push({
      key: "rejectedExamples",
      doc: "The contract's examples the handler turns down: REJECTED with `reason`, one of its declared errors.",
      value: rows,
    });
  }
  if (cases.baseInput !== undefined) {
    const from = cases.baseFromExample ? "the first valid example's input" : "a minimal valid input, synthesized from the schema";
    out.push({ key: "validInput", doc: `A valid input: ${from}. The derived negatives each change one thing in it.`, value: cases.baseInput });
  }
  if (cases.negatives.length > 0) {
    const rows = cases.negatives.map((c) => ({ name: c.name, input: c.input, path: c.path }));
    out.push({
      key: "derivedNegatives",
      doc: "Inputs derived from the input schema, each checked to be invalid at `path` when this file was generated.",
      value: rows,
    });
  }
  if (cases.badOutputs.length > 0) {
    const rows = cases.badOutputs.map((c) => ({ name: c.name, output: c.output }));
    out.push({ key: "badOutputs", doc: "Outputs that break the output schema, as a faulty handler might return them.", value: rows });
  }
  if (cases.content !== undefined) {
    const { input, output, declared, undeclared } = cases.content;
    const value = { input, output, declared: [...declared], undeclared: [...undeclared] };
    out.push({
      key: "contentKinds",
      doc: "One block of each content kind the contract declares (attached together), and of each it does not (attached alone).",
      value,
    });
  }
  return out;
}

/** The table object literal for `tool`, starting at column 0 and ending with its closing brace; `heldBack` says why its real handler does not run. */
export function caseTable(toolName: string, cases: ContractCases, heldBack?: string): string {
  const lines = [`  tool: ${literal(toolName)},`];
  const held: Entry[] = heldBack === undefined ? [] : [{ key: "heldBack", doc: "Why the real handler does not run in these tests.", value: heldBack }];
  for (const entry of [...entries(cases), ...held]) {
    lines.push(`  ${jsDoc([entry.doc], "  ")!}`, `  ${propertyKey(entry.key)}: ${literal(entry.value, 1)},`);
  }
  return `{\n${lines.join("\n")}\n}`;
}
