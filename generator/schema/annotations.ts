/**
 * The keywords that describe a schema without constraining what it accepts,
 * in one table, by kind. Each reader picks the kinds it may ignore, and says
 * why at the place it picks them: a schema hash keeps `default` (the types
 * print it), the diff ignores `x-sensitive` (it compares it on its own), and
 * so on. One table, so a keyword added to JSON Schema or to toolc is added
 * once and every reader sees its kind.
 */

/**
 * - `meta-data`: what a person reads (JSON Schema's meta-data vocabulary less
 *   the three below, and `$comment`);
 * - `access`: `readOnly` and `writeOnly`, which say who writes a value;
 * - `default`: the value assumed when none is sent (toolc never fills it in);
 * - `toolc`: toolc's own marks, which the runtime reads but no validator checks;
 * - `dialect`: `$schema`, the dialect stated (toolc compiles one).
 */
export type AnnotationKind = "meta-data" | "access" | "default" | "toolc" | "dialect";

const ANNOTATION_KINDS: Readonly<Record<string, AnnotationKind>> = {
  title: "meta-data",
  description: "meta-data",
  examples: "meta-data",
  deprecated: "meta-data",
  $comment: "meta-data",
  readOnly: "access",
  writeOnly: "access",
  default: "default",
  "x-sensitive": "toolc",
  "x-mcp-header": "toolc",
  $schema: "dialect",
};

/** The annotation keywords of the given kinds, in the table's order. */
export function annotationKeywords(...kinds: readonly AnnotationKind[]): ReadonlySet<string> {
  return new Set(Object.keys(ANNOTATION_KINDS).filter((keyword) => kinds.includes(ANNOTATION_KINDS[keyword] as AnnotationKind)));
}
