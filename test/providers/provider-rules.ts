/**
 * Each provider's documented schema rules, written out again from the docs
 * (not from toolc's dialect code), as checkers that list every violation.
 *
 * - OpenAI: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 * - Anthropic: https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
 * - Gemini: https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support
 */
type Node = { [key: string]: unknown };

const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);

interface Rules {
  readonly keywords: ReadonlySet<string>;
  readonly formats: ReadonlySet<string>;
  readonly closed: boolean;
  readonly allRequired: boolean;
  readonly minItemsAtMost?: number;
}

const OPENAI: Rules = {
  keywords: new Set(["type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "$ref", "$defs", "description", "title", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems"]),
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
  closed: true,
  allRequired: true,
};

const ANTHROPIC: Rules = {
  keywords: new Set(["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf", "$ref", "$defs", "definitions", "description", "title", "default", "pattern", "format", "minItems"]),
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]),
  closed: true,
  allRequired: false,
  minItemsAtMost: 1,
};

const GEMINI: Rules = {
  keywords: new Set(["type", "title", "description", "enum", "format", "minimum", "maximum", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems", "maxItems", "anyOf", "$ref", "$defs"]),
  formats: new Set(["date-time", "date", "time"]),
  closed: false,
  allRequired: false,
};

function checkNode(node: unknown, path: string, rules: Rules, out: string[], depth: number, stats: { properties: number; depth: number }): void {
  if (!isNode(node)) {
    out.push(`${path}: a boolean schema`);
    return;
  }
  stats.depth = Math.max(stats.depth, depth);
  for (const key of Object.keys(node)) if (!rules.keywords.has(key)) out.push(`${path}: keyword ${key}`);
  if (typeof node.format === "string" && !rules.formats.has(node.format)) out.push(`${path}: format ${node.format}`);
  if (typeof node.minItems === "number" && rules.minItemsAtMost !== undefined && node.minItems > rules.minItemsAtMost) out.push(`${path}: minItems ${node.minItems}`);
  const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
  if (isNode(node.properties) || types.includes("object")) {
    if (rules.closed && node.additionalProperties !== false) out.push(`${path}: object without additionalProperties: false`);
    const names = Object.keys(isNode(node.properties) ? node.properties : {});
    const required = Array.isArray(node.required) ? node.required : [];
    if (rules.allRequired && (names.length !== required.length || names.some((n) => !required.includes(n)))) out.push(`${path}: not every property is required`);
    for (const name of names) {
      stats.properties += 1;
      checkNode((node.properties as Node)[name], `${path}.${name}`, rules, out, depth + 1, stats);
    }
  }
  if (node.items !== undefined) checkNode(node.items, `${path}[]`, rules, out, depth + 1, stats);
  else if (rules.closed && types.includes("array")) out.push(`${path}: array without items`);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((b, i) => checkNode(b, `${path}|${i}`, rules, out, depth, stats));
  if (Array.isArray(node.allOf)) node.allOf.forEach((b, i) => checkNode(b, `${path}&${i}`, rules, out, depth, stats));
  if (isNode(node.additionalProperties)) checkNode(node.additionalProperties, `${path}{}`, rules, out, depth + 1, stats);
}

function check(schema: unknown, rules: Rules): { violations: string[]; properties: number; depth: number } {
  const out: string[] = [];
  const stats = { properties: 0, depth: 0 };
  checkNode(schema, "$", rules, out, 0, stats);
  if (isNode(schema) && isNode(schema.$defs)) for (const [name, def] of Object.entries(schema.$defs)) checkNode(def, `$defs.${name}`, rules, out, 0, stats);
  return { violations: out, ...stats };
}

/** OpenAI strict mode: the subset, closed objects, every property required, a root object that is not anyOf, and the size limits. */
export function openaiStrictViolations(schema: unknown): string[] {
  const { violations, properties, depth } = check(schema, OPENAI);
  if (!isNode(schema) || schema.type !== "object" || schema.anyOf !== undefined) violations.push("$: the root must be an object and not anyOf");
  if (properties > 5000) violations.push(`${properties} properties`);
  if (depth > 10) violations.push(`${depth} levels of nesting`);
  return violations;
}

function refs(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (isNode(node)) for (const [k, v] of Object.entries(node)) k === "$ref" && typeof v === "string" ? out.add(v.replace("#/$defs/", "")) : refs(v, out);
  return out;
}

/** Anthropic strict tool use: the subset, closed objects, minItems 0 or 1, and no recursive schema. */
export function anthropicStrictViolations(schema: unknown): string[] {
  const { violations } = check(schema, ANTHROPIC);
  const defs = isNode(schema) && isNode(schema.$defs) ? schema.$defs : {};
  for (const name of Object.keys(defs)) {
    const seen = new Set<string>();
    const queue = [...refs(defs[name], new Set())];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (next === name) violations.push(`$defs.${name}: recursive`);
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...refs(defs[next], new Set()));
    }
  }
  return [...new Set(violations)];
}

/** Gemini's documented JSON Schema subset. */
export function geminiViolations(schema: unknown): string[] {
  return check(schema, GEMINI).violations;
}

export const NAME_RULES = {
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,64}$/,
  gemini: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
};
