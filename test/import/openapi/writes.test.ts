/**
 * Retries that cannot duplicate (issue #38): an imported write is retried
 * only when repeating it cannot apply it twice, because HTTP defines its
 * method as idempotent (PUT, DELETE) or because every attempt sends the same
 * idempotency key. The contract says so, and `--report` lists every write
 * with its decision.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../generator/pipeline/run.js";
import { reportMarkdown } from "../../../generator/import/openapi/report-file.js";
import { importSpec, OK_OBJECT, openapi30 } from "./helpers.js";

const KEY = { name: "Idempotency-Key", in: "header", schema: { type: "string" } };
const BODY = { content: { "application/json": { schema: { type: "object", properties: { text: { type: "string" } } } } } };

describe("which writes are retried", () => {
  it.each([
    { method: "get", effect: "read", idempotent: undefined, retry: { attempts: 3 } },
    { method: "head", effect: "read", idempotent: undefined, retry: { attempts: 3 } },
    { method: "options", effect: "read", idempotent: undefined, retry: { attempts: 3 } },
    { method: "put", effect: "write", idempotent: true, retry: { attempts: 3 } },
    { method: "delete", effect: "destructive", idempotent: true, retry: { attempts: 3 } },
    { method: "post", effect: "write", idempotent: undefined, retry: undefined },
    { method: "patch", effect: "write", idempotent: undefined, retry: undefined },
  ])("$method: $effect, retry $retry.attempts", async ({ method, effect, idempotent, retry }) => {
    const { contracts } = await importSpec(openapi30({ "/a": { [method]: { operationId: "op", responses: { 200: OK_OBJECT } } } }));
    const contract = contracts.op!;
    expect({ effect: contract.effect, idempotent: contract.idempotent, retry: contract.retry, key: contract.idempotencyKey }).toEqual({ effect, idempotent, retry, key: undefined });
  });

  it("a POST or PATCH that declares an Idempotency-Key header takes it as a required input, declares it, and is retried", async () => {
    const spec = openapi30({
      "/notes": { post: { operationId: "createNote", parameters: [KEY], requestBody: BODY, responses: { 201: OK_OBJECT } } },
      "/notes/{id}": {
        patch: { operationId: "appendNote", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }, { ...KEY, name: "idempotency-key" }], requestBody: BODY, responses: { 200: OK_OBJECT } },
      },
    });
    const { contracts, dir, messages } = await importSpec(spec);
    expect(messages).toEqual([]);
    expect(contracts.createNote).toMatchObject({ effect: "write", idempotencyKey: "Idempotency-Key", retry: { attempts: 3 }, input: { required: ["Idempotency-Key"] } });
    expect(contracts.createNote).not.toHaveProperty("idempotent");
    expect(contracts.appendNote).toMatchObject({ idempotencyKey: "idempotency-key", retry: { attempts: 3 }, input: { required: ["id", "idempotency-key"] } });
    // The generator accepts it: a retried write needs a key that is a required string (TC040, TC041).
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("the curation names the header, per operation or for every write; the handler sends the input as that header", async () => {
    const spec = openapi30({
      "/notes": { post: { operationId: "createNote", requestBody: BODY, responses: { 201: OK_OBJECT } }, patch: { operationId: "touchNotes", responses: { 200: OK_OBJECT } } },
      "/tags": { post: { operationId: "createTag", responses: { 201: OK_OBJECT } } },
    });
    const curation = "defaults: { idempotencyKey: X-Request-Key }\noperations:\n  createNote: { idempotencyKey: Idem }\n";
    const { contracts, result, dir } = await importSpec(spec, curation);
    expect(contracts.createNote).toMatchObject({ idempotencyKey: "Idem", retry: { attempts: 3 }, input: { properties: { Idem: { type: "string" } }, required: ["Idem"] } });
    expect(contracts.createTag).toMatchObject({ idempotencyKey: "X-Request-Key", retry: { attempts: 3 } });
    expect(contracts.touchNotes).toMatchObject({ idempotencyKey: "X-Request-Key" });
    const binding = result.tools.find((t) => t.name === "createNote")!.binding;
    expect(binding.parameters).toContainEqual({ name: "Idem", in: "header", style: "simple", explode: false, key: "Idem" });
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("a curated retry on a write without a key is an error, the defaults' retry does not reach it, and the contract says why", async () => {
    const spec = openapi30({ "/a": { post: { operationId: "create", responses: { 201: OK_OBJECT } }, patch: { operationId: "change", responses: { 200: OK_OBJECT } } } });
    const { contracts, messages, dir } = await importSpec(spec, "defaults: { retry: { attempts: 4 } }\noperations:\n  change: { retry: { attempts: 2 } }\n");
    expect(Object.keys(contracts)).toEqual(["create"]);
    expect(contracts.create).not.toHaveProperty("retry");
    expect(messages).toContainEqual(expect.stringMatching(/^error \/paths\/~1a\/patch: the curation asks for 2 attempts, but the tool is not idempotent.*idempotencyKey/));
    expect(readFileSync(join(dir, "definitions/create.yaml"), "utf8")).toMatch(/# toolc import: retry: not retried: the tool is not idempotent and sends no idempotency key/);
  });

  it("--report lists every write with its retry decision", async () => {
    const spec = openapi30({
      "/a": {
        get: { operationId: "read", responses: { 200: OK_OBJECT } },
        post: { operationId: "create", responses: { 201: OK_OBJECT } },
        put: { operationId: "replace", responses: { 200: OK_OBJECT } },
        patch: { operationId: "change", parameters: [KEY], responses: { 200: OK_OBJECT } },
        delete: { operationId: "remove", responses: { 204: { description: "gone" } } },
      },
    });
    const { result } = await importSpec(spec);
    const section = reportMarkdown(result).split(/^## /m).find((s) => s.startsWith("Writes"))!;
    const rows = section.split("\n").filter((l) => l.startsWith("| ")).slice(2).sort();
    expect(rows).toEqual([
      expect.stringMatching(/^\| change \| PATCH \/a \| no \| Idempotency-Key \| 3 \| 3 attempts, since every attempt sends the same idempotency key/),
      expect.stringMatching(/^\| create \| POST \/a \| no \| none \| 1 \| not retried: a POST may have applied/),
      expect.stringMatching(/^\| remove \| DELETE \/a \| yes \| none \| 3 \|/),
      expect.stringMatching(/^\| replace \| PUT \/a \| yes \| none \| 3 \| 3 attempts, since the tool is idempotent/),
    ]);
  });
});
