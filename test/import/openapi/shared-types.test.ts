// Components two or more contracts share are written once, in a types file, and compiled back into each served schema.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { compile } from "../../../generator/pipeline/run.js";
import { importSpec, openapi30, type Obj } from "./helpers.js";

const THING = {
  type: "object",
  properties: { id: { type: "string", readOnly: true }, name: { type: "string" }, owner: { $ref: "#/components/schemas/User" } },
  required: ["id", "name"],
};
const USER = { type: "object", properties: { login: { type: "string" } }, required: ["login"] };
const ONLY_HERE = { type: "object", properties: { n: { type: "integer" } } };

const json = (schema: Obj): Obj => ({ "application/json": { schema } });
const ref = (name: string): Obj => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: Obj): Obj => ({ 200: { description: "ok", content: json(schema) } });

/** Two reads of Thing, two writes of Thing (whose input has no `id`), and one operation with a component of its own. */
function spec(): Obj {
  return openapi30(
    {
      "/things/{id}": {
        get: { operationId: "get_thing", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: ok(ref("Thing")) },
        put: {
          operationId: "put_thing",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: json({ type: "object", properties: { thing: ref("Thing") } }) },
          responses: ok(ref("Thing")),
        },
      },
      "/things": {
        get: { operationId: "list_things", responses: ok({ type: "array", items: ref("Thing") }) },
        post: {
          operationId: "add_thing",
          requestBody: { required: true, content: json({ type: "object", properties: { thing: ref("Thing") } }) },
          responses: ok(ref("Thing")),
        },
      },
      "/other": { get: { operationId: "other", responses: ok({ type: "array", items: ref("OnlyHere") }) } },
    },
    { schemas: { Thing: THING, User: USER, OnlyHere: ONLY_HERE } },
  );
}

function typesFileOf(dir: string): Obj {
  return parse(readFileSync(join(dir, "definitions/types/shop.yaml"), "utf8")) as Obj;
}

describe("components shared by contracts", () => {
  it("are written once in a types file the contracts refer to; one contract's own component stays in its $defs", async () => {
    const { dir, contracts } = await importSpec(spec());
    const types = typesFileOf(dir).types as Obj;
    // Thing's output and input differ (readOnly id), so the input's is ThingInput; User is the same both ways.
    expect(Object.keys(types)).toEqual(["Thing", "ThingInput", "User"]);
    expect(types.Thing).toEqual({ ...THING, properties: { ...THING.properties, owner: { $ref: "#/types/User" } }, additionalProperties: true });
    expect((types.ThingInput as Obj).properties).toEqual({ name: { type: "string" }, owner: { $ref: "#/types/User" } });
    expect(((contracts.get_thing!.output as Obj).properties as Obj).owner).toEqual({ $ref: "types/shop.yaml#/User" });
    expect(((contracts.put_thing!.input as Obj).properties as Obj).thing).toEqual({ $ref: "types/shop.yaml#/ThingInput" });
    expect((contracts.other!.output as Obj).$defs).toEqual({ OnlyHere: { ...ONLY_HERE, additionalProperties: true } });
  });

  it("compile back into each tool's served schema, self-contained", async () => {
    const { dir } = await importSpec(spec());
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const served = compiled.ir!.tools.find((t) => t.name === "list_things")!.outputSchema as Obj;
    expect(Object.keys(served.$defs as Obj).sort()).toEqual(["Thing", "User"]);
    expect(JSON.stringify(served)).toContain('"items":{"$ref":"#/$defs/Thing"}');
    const input = compiled.ir!.tools.find((t) => t.name === "put_thing")!.inputSchema as Obj;
    expect(Object.keys(input.$defs as Obj).sort()).toEqual(["ThingInput", "User"]);
  });

  it("a re-import that shares nothing removes the types file it wrote; one it did not write is kept", async () => {
    const first = await importSpec(spec());
    const path = join(first.dir, "definitions/types/shop.yaml");
    expect(existsSync(path)).toBe(true);
    const alone = openapi30({ "/other": { get: { operationId: "other", responses: ok(ref("OnlyHere")) } } }, { schemas: { OnlyHere: ONLY_HERE } });
    const again = await importSpec(alone, undefined, {}, first.dir);
    expect(again.result.removed).toContain("definitions/types/shop.yaml");
    expect(existsSync(path)).toBe(false);

    writeFileSync(path, "types:\n  Mine: { type: string }\n");
    const third = await importSpec(spec(), undefined, {}, first.dir);
    expect(third.messages.join("\n")).toContain('exists and was not written by an import of "shop"');
    expect(readFileSync(path, "utf8")).toBe("types:\n  Mine: { type: string }\n");
  });

  it("go to more than one types file when they are large, referring across files, and compile", async () => {
    // 40 components of ~5 KB each, a chain A0 -> A1 -> ... so refs cross from one file to the next.
    const schemas: Obj = {};
    for (let i = 0; i < 40; i++)
      schemas[`Part${i}`] = { type: "object", description: "x".repeat(5000), properties: { next: i < 39 ? ref(`Part${i + 1}`) : { type: "string" } } };
    const two = openapi30({ "/a": { get: { operationId: "a", responses: ok(ref("Part0")) } }, "/b": { get: { operationId: "b", responses: ok(ref("Part0")) } } }, { schemas });
    const { dir } = await importSpec(two);
    const files = readdirSync(join(dir, "definitions/types")).sort();
    expect(files).toEqual(["shop-2.yaml", "shop-3.yaml", "shop-4.yaml", "shop.yaml"]);
    const second = (parse(readFileSync(join(dir, "definitions/types/shop-2.yaml"), "utf8")) as Obj).types as Obj;
    const refs = Object.values(second).map((t) => ((t as Obj).properties as Obj).next as Obj);
    expect(refs.some((r) => typeof r.$ref === "string" && r.$ref.startsWith("#/types/"))).toBe(true);
    expect(refs.some((r) => typeof r.$ref === "string" && /^shop(-\d)?\.yaml#\//.test(r.$ref))).toBe(true);
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const served = compiled.ir!.tools.find((t) => t.name === "a")!.outputSchema as Obj;
    expect(Object.keys(served.$defs as Obj)).toHaveLength(39);
  });
});
