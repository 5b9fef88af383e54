/**
 * A tool contract for the `$ref` fan-out tests (docs/robustness.md, "Third
 * attack pass", H2): its input's `root` refers to `$defs/d0`, and `defs` are
 * the `$defs` lines, each already indented under `$defs:` (`    d0: …`).
 */
export function fanContract(defs: readonly string[]): string {
  return [
    "name: fan",
    "version: 1",
    "description: Fan.",
    "effect: read",
    "input:",
    "  type: object",
    "  properties:",
    '    root: { $ref: "#/$defs/d0" }',
    "  $defs:",
    ...defs,
    "output: { type: object }",
    "",
  ].join("\n");
}
