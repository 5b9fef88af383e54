/**
 * Curated groups: one tool that serves several operations, chosen by its
 * `operation` argument, so an API of many endpoints becomes fewer tools.
 * The group's input is one branch per operation (`oneOf`, each branch the
 * operation's own input plus `operation: { const: <name> }`), its output any
 * of theirs, its errors all of theirs; its effect is the strongest of its
 * operations', and it is idempotent only when all of them are.
 */
import { mapSchema } from "../../schema/walk.js";
import type { Problem } from "../problems.js";
import type { HttpBinding } from "./binding.js";
import { contractOf, type OpenApiTool } from "./contract.js";
import type { Curation } from "./curation.js";
import { operationKeys } from "./select.js";
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

const STRENGTH = { read: 0, write: 1, destructive: 2 } as const;
type Effect = keyof typeof STRENGTH;

/** A group's binding: each member's, by the `operation` value that chooses it. */
export interface GroupBinding {
  readonly group: Readonly<Record<string, HttpBinding>>;
}

function withoutDefs(schema: unknown): { schema: JsonObject; defs: JsonObject } {
  const { $defs, ...rest } = schema as JsonObject;
  return { schema: rest, defs: isJsonObject($defs) ? $defs : {} };
}

function isIdempotent(contract: JsonObject): boolean {
  return typeof contract.idempotent === "boolean" ? contract.idempotent : contract.effect === "read";
}

/**
 * Defaults inside a `oneOf` branch are never applied (Ajv refuses them in
 * strict mode), so a group's branches go without: an absent argument is
 * left out of the request, and the API applies its own default.
 */
function withoutDefaults(schema: JsonObject): JsonObject {
  return mapSchema(schema as never, [], (node) => {
    if (!("default" in node)) return node;
    const { default: _, ...rest } = node;
    return rest;
  }) as JsonObject;
}

function branch(member: OpenApiTool): { schema: JsonObject; defs: JsonObject } {
  const input = withoutDefs(member.contract.input);
  const schema = withoutDefaults(input.schema);
  const defs = Object.fromEntries(Object.entries(input.defs).map(([k, v]) => [k, isJsonObject(v) ? withoutDefaults(v) : v]));
  const properties = { operation: { const: member.name, description: member.contract.description }, ...(schema.properties as JsonObject) };
  const required = ["operation", ...(Array.isArray(schema.required) ? schema.required : [])];
  return { schema: { ...schema, properties, required }, defs };
}

/**
 * The root of a group's output union: an object open to what any branch
 * accepts when every member answers an object, so a 2025-era client still
 * gets the object itself; no type of its own when one answers an array or
 * another value, which an object root would never accept.
 */
function groupOutputRoot(outputs: readonly JsonObject[]): JsonObject {
  return outputs.every((o) => o.type === "object") ? { type: "object", additionalProperties: true } : {};
}

function groupTool(name: string, title: string | undefined, description: string, members: readonly OpenApiTool[], marker: string): OpenApiTool {
  const defs: JsonObject = {};
  const inputs = members.map((m) => {
    const b = branch(m);
    Object.assign(defs, b.defs);
    return b.schema;
  });
  const outputDefs: JsonObject = {};
  const outputs = members.map((m) => {
    const o = withoutDefs(m.contract.output);
    Object.assign(outputDefs, o.defs);
    return o.schema;
  });
  const effect = members.map((m) => m.contract.effect as Effect).reduce((a, b) => (STRENGTH[b] > STRENGTH[a] ? b : a));
  const idempotent = members.every((m) => isIdempotent(m.contract));
  // One confirmed operation makes the group confirmed: the approval is asked before any branch runs.
  const confirm = members.some((m) => m.contract.confirm === true);
  const errors = Object.assign({}, ...members.map((m) => (isJsonObject(m.contract.errors) ? m.contract.errors : {}))) as JsonObject;
  const content = [...new Set(members.flatMap((m) => (Array.isArray(m.contract.content) ? (m.contract.content as string[]) : [])))];
  const retry = idempotent ? members.map((m) => m.contract.retry).find((r) => r !== undefined) : undefined;
  const contract = contractOf({
    name,
    title,
    description,
    effect,
    idempotent,
    confirm,
    retry: isJsonObject(retry) ? retry : undefined,
    errors,
    content,
    // The branches are closed objects; the root stays open so that it does not reject what a branch accepts.
    input: { type: "object", additionalProperties: true, oneOf: inputs, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) },
    output: { ...groupOutputRoot(outputs), anyOf: outputs, ...(Object.keys(outputDefs).length > 0 ? { $defs: outputDefs } : {}) },
  });
  const notes = [
    marker,
    `group of ${members.map((m) => m.notes[1]?.replace(/^from /, "") ?? m.name).join("; ")}`,
    `effect: ${effect}, the strongest of its operations'`,
  ];
  const binding = { group: Object.fromEntries(members.map((m) => [m.name, m.binding])) } as unknown as HttpBinding;
  return { name, contract, notes, binding, operation: members[0]!.operation };
}

/** The tools with each curated group's members replaced by the group, at the first member's place. */
export function buildGroups(
  tools: readonly OpenApiTool[],
  curation: Curation,
  locate: (p: readonly string[]) => string,
  problems: Problem[],
  marker: string,
): OpenApiTool[] {
  const problem = (path: readonly string[], severity: Problem["severity"], message: string) =>
    problems.push({ severity, file: locate(path), pointer: "", message });
  const groups = Object.entries(curation.groups ?? {});
  if (groups.length === 0) return [...tools];
  const memberOf = new Map<OpenApiTool, string>();
  const built = new Map<string, OpenApiTool>();
  for (const [name, group] of groups) {
    const members: OpenApiTool[] = [];
    for (const key of group.operations) {
      const member = tools.find((t) => t.name === key || operationKeys(t.operation).includes(key));
      if (!member)
        problem(["groups", name, "operations"], "warning", `group ${JSON.stringify(name)} names ${JSON.stringify(key)}, which is no imported operation`);
      else if (memberOf.has(member))
        problem(["groups", name, "operations"], "warning", `${JSON.stringify(key)} is already in group ${JSON.stringify(memberOf.get(member))}`);
      else {
        members.push(member);
        memberOf.set(member, name);
      }
    }
    // `operation` chooses the branch: a member's own argument of that name would overwrite the choice.
    const clash = members.filter(
      (m) => isJsonObject(m.contract.input) && isJsonObject(m.contract.input.properties) && Object.hasOwn(m.contract.input.properties, "operation"),
    );
    for (const m of clash)
      problem(
        ["groups", name, "operations"],
        "error",
        `group ${JSON.stringify(name)}: operation ${JSON.stringify(m.name)} has an argument named \`operation\`, which the group uses to choose the operation; drop it (operations.${m.name}.drop) or leave the operation out of the group`,
      );
    if (members.length > 0 && clash.length === 0) built.set(name, groupTool(name, group.title, group.description, members, marker));
  }
  const out: OpenApiTool[] = [];
  for (const tool of tools) {
    const group = memberOf.get(tool);
    if (group === undefined) out.push(tool);
    else if (built.has(group)) {
      out.push(built.get(group)!);
      built.delete(group);
    }
  }
  const names = new Set<string>();
  for (const tool of out) {
    if (names.has(tool.name.toLowerCase())) problem(["groups", tool.name], "error", `group name ${JSON.stringify(tool.name)} is also the name of another tool`);
    names.add(tool.name.toLowerCase());
  }
  return out;
}

export function isGroupBinding(binding: unknown): binding is GroupBinding {
  return isJsonObject(binding) && isJsonObject((binding as JsonObject).group);
}
