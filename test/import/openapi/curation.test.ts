/** The curation file: what it changes, how its mistakes are reported, and that a re-import keeps it. */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../generator/pipeline/run.js";
import { runCli } from "../../compiler/helpers.js";
import { docsGithubCuration, githubOperations, importSpec, OK_OBJECT, openapi30, scratchProject, type Obj } from "./helpers.js";
import { generateAndLoad, startLoopbackApi } from "./project.js";

const ID = { name: "id", in: "path", required: true, schema: { type: "string" } };
const SHOP = openapi30({
  "/orders": {
    get: { operationId: "listOrders", tags: ["orders"], parameters: [{ name: "page", in: "query", schema: { type: "integer" } }, { name: "api_version", in: "query", required: true, schema: { type: "string" } }], responses: { 200: OK_OBJECT } },
    post: { operationId: "createOrder", tags: ["orders"], requestBody: { content: { "application/json": { schema: { type: "object", properties: { item: { type: "string" } } } } } }, responses: { 201: OK_OBJECT } },
  },
  "/orders/{id}": {
    get: { operationId: "getOrder", tags: ["orders"], parameters: [ID, { name: "verbose", in: "query", schema: { type: "boolean", default: false } }], responses: { 200: OK_OBJECT, 404: { description: "No such order" } } },
    delete: { operationId: "deleteOrder", tags: ["orders"], parameters: [ID], responses: { 204: { description: "Deleted" }, 404: { description: "No such order" } } },
  },
  "/admin/stats": { get: { operationId: "stats", tags: ["admin"], responses: { 200: OK_OBJECT } } },
});

describe("curation", () => {
  it("renames, rewrites descriptions, drops, fixes and adds parameters, sets effect, retry and timeout", async () => {
    const curation = `operations:
  listOrders:
    name: list_orders
    title: List orders
    description: The shop's orders, newest first.
    drop: [page]
    set: { api_version: "2024-01" }
    add: { X-Tenant: { in: header, required: true, schema: { type: string, minLength: 1 } } }
    timeoutMs: 3000
    retry: { attempts: 2, backoffMs: 50 }
  POST /orders:
    effect: write
    idempotent: true
`;
    const { contracts, result } = await importSpec(SHOP, curation);
    expect(contracts.list_orders).toMatchObject({
      title: "List orders", description: "The shop's orders, newest first.", timeoutMs: 3000, retry: { attempts: 2, backoffMs: 50 },
      input: { type: "object", properties: { "X-Tenant": { type: "string", minLength: 1 } }, required: ["X-Tenant"] },
    });
    expect(contracts.createOrder).toMatchObject({ effect: "write", idempotent: true, retry: { attempts: 3 } });
    const binding = result.tools.find((t) => t.name === "list_orders")!.binding;
    expect(binding.parameters).toEqual([
      { name: "api_version", in: "query", style: "form", explode: true, value: "2024-01" },
      { name: "X-Tenant", in: "header", style: "simple", explode: false, key: "X-Tenant" },
    ]);
  });

  it.each([
    { name: "include by tag", curation: "include: { tags: [admin] }\n", tools: ["stats"] },
    { name: "include by path glob and method", curation: "include: { paths: ['/orders/*'] }\nexclude: { methods: [DELETE] }\n", tools: ["getOrder"] },
    { name: "exclude one operation", curation: "operations:\n  stats: { exclude: true }\n", tools: ["listOrders", "createOrder", "getOrder", "deleteOrder"] },
  ])("$name", async ({ curation, tools }) => {
    const { contracts } = await importSpec(SHOP, curation);
    expect(Object.keys(contracts).sort()).toEqual([...tools].sort());
  });

  it("the command line's --include and --exclude select too", async () => {
    const dir = (await importSpec(SHOP, "", { dryRun: true })).dir;
    const run = await runCli(dir, ["import", "openapi", "api.json", "--include", "tag:orders", "--exclude", "op:createOrder"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("5 operations read, 3 selected; 3 tools");
  });

  it.each([
    { args: ["import", "openapi"], code: 2, err: /expected one SPEC, got 0/ },
    { args: ["import", "openapi", "api.json", "--include", "label:x"], code: 2, err: /--include "label:x": expected tag:NAME, op:OPERATION_ID, path:GLOB or method:METHOD/ },
    { args: ["import", "openapi", "--help"], code: 0, out: /Usage: toolc import openapi SPEC/ },
  ])("the command line: $args", async ({ args, code, err, out }) => {
    const dir = (await importSpec(SHOP, "", { dryRun: true })).dir;
    const run = await runCli(dir, args);
    expect(run.code).toBe(code);
    if (err) expect(run.stderr).toMatch(err);
    if (out) expect(run.stdout).toMatch(out);
  });

  it("--report FILE writes every conversion and divergence as Markdown, one row per field, curation warnings at their place", async () => {
    const note = { type: "object", properties: { id: { type: "string", example: "o-1" }, note: { type: "string", nullable: true }, link: { type: "string", format: "uri-template" } }, required: ["id"] };
    const spec = openapi30({ "/orders/{id}": { get: { operationId: "getOrder", parameters: [ID], responses: { 200: { description: "ok", content: { "application/json": { schema: note } } } } } } });
    const dir = (await importSpec(spec, "operations:\n  getOrder:\n    set: { X-Api-Version: '2' }\n", { dryRun: true })).dir;
    const run = await runCli(dir, ["import", "openapi", "api.json", "--report", "import-report.md"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("converted: example 1, nullable 1");
    const report = readFileSync(join(dir, "import-report.md"), "utf8");
    const [head, problems, conversions] = report.split(/^## /m);
    // A table's rows, after its header line and separator line.
    const rows = (section: string | undefined) => (section ?? "").split("\n").filter((l) => l.startsWith("| ")).slice(2);
    expect(head).toMatch(/^# Import of Shop API\n[\s\S]*- conversions: 2 \(example 1, nullable 1\)\n- problems: 0 errors, 2 warnings\n/);
    const at = "/paths/~1orders~1{id}/get/responses/200/content/application~1json/schema/properties";
    expect(rows(problems)).toEqual([
      expect.stringMatching(/^\| warning \| openapi\.curation\.yaml:3:12 \| 'set' names "X-Api-Version", which is neither a parameter nor a body property/),
      expect.stringMatching(new RegExp(`^\\| warning \\| ${at.replace(/[{}]/g, "\\$&")}/link/format \\| format "uri-template" is not one toolc checks`)),
    ]);
    expect(rows(conversions)).toEqual([
      `| example | ${at}/id/example | 'example' became 'examples: [value]' |`,
      `| nullable | ${at}/note/nullable | 'nullable: true' became 'null' in 'type' |`,
    ]);
  });

  it("groups operations into one tool, chosen by `operation`, with the strongest effect and every error", async () => {
    const curation = `groups:
  orders:
    description: Read or delete one order.
    operations: [getOrder, deleteOrder]
`;
    const { contracts, dir } = await importSpec(SHOP, curation);
    expect(Object.keys(contracts).sort()).toEqual(["createOrder", "listOrders", "orders", "stats"]);
    // A default inside a oneOf branch would never be applied (Ajv's strict mode refuses it): the group compiles without.
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const group = contracts.orders as Obj;
    expect(group).toMatchObject({ effect: "destructive", errors: { NOT_FOUND: { description: "No such order" } } });
    const branches = (group.input as Obj).oneOf as Obj[];
    expect(branches.map((b) => ((b.properties as Obj).operation as Obj).const)).toEqual(["getOrder", "deleteOrder"]);
    expect(branches.map((b) => b.required)).toEqual([["operation", "id"], ["operation", "id"]]);
  });

  it("refuses a group whose operation has an argument named `operation`, which chooses the branch", async () => {
    const spec = openapi30({
      "/jobs/{id}": {
        get: { operationId: "getJob", parameters: [ID, { name: "operation", in: "query", schema: { type: "string" } }], responses: { 200: OK_OBJECT } },
        delete: { operationId: "deleteJob", parameters: [ID], responses: { 204: { description: "Deleted" } } },
      },
    });
    const curation = "groups:\n  jobs:\n    description: Read or delete a job.\n    operations: [getJob, deleteJob]\n";
    const { contracts, messages } = await importSpec(spec, curation);
    expect(messages).toContainEqual(expect.stringMatching(/^error .*group "jobs": operation "getJob" has an argument named `operation`, which the group uses to choose the operation; drop it \(operations\.getJob\.drop\)/));
    expect(contracts).not.toHaveProperty("jobs");
    const dropped = await importSpec(spec, `operations:\n  getJob: { drop: [operation] }\n${curation}`);
    expect(dropped.messages.filter((m) => m.startsWith("error"))).toEqual([]);
    expect(((dropped.contracts.jobs as Obj).input as Obj).oneOf).toHaveLength(2);
  });

  it("carries `confirm` into the contract, and a group with a confirmed operation is confirmed", async () => {
    const { contracts, messages, dir } = await importSpec(SHOP, "operations:\n  deleteOrder: { confirm: true }\n");
    expect(contracts.deleteOrder).toMatchObject({ effect: "destructive", confirm: true });
    expect(contracts.getOrder).not.toHaveProperty("confirm");
    expect(messages.filter((m) => /confirm/.test(m))).toEqual([]);
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const grouped = await importSpec(SHOP, "operations:\n  deleteOrder: { confirm: true }\ngroups:\n  orders:\n    description: Read or delete an order.\n    operations: [getOrder, deleteOrder]\n");
    expect(grouped.contracts.orders).toMatchObject({ confirm: true });
  });

  it("warns above its maxTools, naming what reduces the count", async () => {
    const { messages } = await importSpec(SHOP, "maxTools: 3\n");
    expect(messages).toContainEqual(expect.stringMatching(/5 tools is more than 3 \(the curation's maxTools\).*`include`\/`exclude`.*`groups`/));
  });

  it.each([
    { text: "operations:\n  listOrders: { nmae: x }\n", line: 2, message: /unknown key `nmae`; did you mean `name`\?/ },
    { text: "maxTools: many\n", line: 1, message: /`maxTools` must be integer/ },
    { text: "operations:\n  listOrders:\n    effect: delete\n", line: 3, message: /`operations.listOrders.effect` must be equal to one of the allowed values/ },
  ])("a mistake in the file is a located error and nothing is written: $text", async ({ text, line, message }) => {
    const { result, contracts } = await importSpec(SHOP, text);
    expect(result.aborted).toBe(true);
    expect(contracts).toEqual({});
    expect(result.diagnostics).toEqual([expect.objectContaining({ file: "openapi.curation.yaml", line, message: expect.stringMatching(message) })]);
  });

  it("names an operation the description does not have, with its place", async () => {
    const { result } = await importSpec(SHOP, "operations:\n  listOrder: { name: x }\n");
    expect(result.problems).toContainEqual(expect.objectContaining({ severity: "warning", file: "openapi.curation.yaml:2:3", message: expect.stringMatching(/^the curation names operation "listOrder"/) }));
  });

  it("a required parameter cannot be dropped without a value", async () => {
    const { result } = await importSpec(SHOP, "operations:\n  listOrders: { drop: [api_version] }\n");
    expect(result.skipped).toEqual(["listOrders"]);
  });
});

const ISSUE_BODY = {
  type: "object",
  properties: { title: { type: "string" }, body: { type: "string" }, milestone: { type: "integer" }, labels: { type: "array", items: { type: "string" } } },
  required: ["title"],
};
const ISSUES = openapi30({
  "/issues": { post: { operationId: "createIssue", requestBody: { required: true, content: { "application/json": { schema: ISSUE_BODY } } }, responses: { 201: OK_OBJECT } } },
  "/issues/{id}/labels": {
    put: { operationId: "setLabels", parameters: [ID], requestBody: { content: { "application/json": { schema: { type: "array", items: { type: "string" } } } } }, responses: { 200: OK_OBJECT } },
  },
});

/** A project on MCP SDK 1.x (toolc's node_modules linked) with `spec` imported under `curation`. */
async function importIntoProject(spec: Obj, curation: string) {
  return importSpec(spec, curation, {}, scratchProject("curation", { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } }));
}

describe("drop and set", () => {
  it("drop and set reach the properties of a flattened body, and the generated handler sends the set value in the body", async () => {
    const { contracts, result, dir } = await importIntoProject(ISSUES, "operations:\n  createIssue:\n    drop: [milestone]\n    set: { labels: [triage] }\n");
    expect(result.problems).toEqual([]);
    expect(contracts.createIssue).toMatchObject({ input: { properties: { title: { type: "string" }, body: { type: "string" } }, required: ["title"] } });
    expect(Object.keys(((contracts.createIssue as Obj).input as Obj).properties as Obj)).toEqual(["title", "body"]);
    expect(result.tools.find((t) => t.name === "createIssue")!.binding.body).toEqual({ encoding: "json", mediaType: "application/json", keys: ["title", "body"], fixed: { labels: ["triage"] } });

    const project = await generateAndLoad(dir);
    const api = await startLoopbackApi();
    try {
      const handlers = project.createOpenApiHandlers({ baseUrl: api.url });
      api.answer(201, { id: "17" });
      expect(await project.execute("createIssue", { title: "Flaky test", milestone: 3 }, handlers)).toMatchObject({ ok: false, code: "INVALID_INPUT" });
      expect(api.requests).toEqual([]);
      expect(await project.execute("createIssue", { title: "Flaky test" }, handlers)).toEqual({ ok: true, data: { id: "17" } });
      expect(api.requests).toHaveLength(1);
      expect(JSON.parse(api.requests[0]!.body)).toEqual({ title: "Flaky test", labels: ["triage"] });
    } finally {
      await api.close();
    }
  });

  it("a body property the API requires cannot be dropped without a value", async () => {
    const { result } = await importSpec(ISSUES, "operations:\n  createIssue: { drop: [title] }\n");
    expect(result.skipped).toEqual(["createIssue"]);
    expect(result.problems).toContainEqual(expect.objectContaining({ severity: "error", message: expect.stringMatching(/^body property "title" is required by the API, so the curation cannot drop it without a value in `set`/) }));
  });

  it("an entry that names nothing the operation has is a warning at its place in the curation file", async () => {
    const curation = [
      "operations:",
      "  listOrders:",
      "    drop: [page, pgae]",
      "    set: { api_version: '2024-01', X-Api-Version: '2' }",
      "  setLabels:",
      "    drop: [labels]",
      "",
    ].join("\n");
    const { result } = await importSpec({ ...SHOP, paths: { ...(SHOP.paths as Obj), ...(ISSUES.paths as Obj) } }, curation);
    const warnings = result.problems.filter((p) => p.file.startsWith("openapi.curation.yaml"));
    expect(warnings.map((p) => `${p.file} ${p.message.split(",")[0]}`)).toEqual([
      "openapi.curation.yaml:3:18 `drop` names \"pgae\"",
      "openapi.curation.yaml:4:36 `set` names \"X-Api-Version\"",
      "openapi.curation.yaml:6:12 `drop` names \"labels\"",
    ]);
    expect(warnings.map((p) => p.severity)).toEqual(["warning", "warning", "warning"]);
    expect(warnings[1]!.message).toMatch(/so nothing is sent; .*declare it in `add` as well \(`add: \{ X-Api-Version: \{ in: header \} \}`\)/);
    expect(warnings[2]!.message).toMatch(/the request body is one input property \(`body`\), so its properties cannot be dropped or set one by one/);
  });

  it("the docs' GitHub example works as written on GitHub's own operations: milestone is not offered, the API version header is sent", async () => {
    const spec = githubOperations(["issues/create", "issues/get", "issues/add-labels", "issues/list-labels-on-issue", "issues/set-labels", "issues/remove-label", "repos/delete"]);
    const { contracts, result, dir } = await importIntoProject(spec, docsGithubCuration());
    expect(result.problems.filter((p) => p.severity === "error" || p.file.startsWith("openapi.curation.yaml"))).toEqual([]);
    // DELETEs are excluded (issues/remove-label), and repos/delete is not tagged `issues`.
    expect(Object.keys(contracts).sort()).toEqual(["create_issue", "issue_labels", "issues_get"]);
    const input = (contracts.create_issue as Obj).input as Obj;
    expect(input.properties).toHaveProperty("title");
    expect(input.properties).toHaveProperty("X-Request-Id");
    expect(input.properties).not.toHaveProperty("milestone");
    expect(input.properties).not.toHaveProperty("X-GitHub-Api-Version");
    expect(contracts.create_issue).toMatchObject({ effect: "write", timeoutMs: 5000 });
    expect(contracts.issues_get).toMatchObject({ retry: { attempts: 5, backoffMs: 500 }, timeoutMs: 8000 });

    const project = await generateAndLoad(dir);
    const api = await startLoopbackApi();
    try {
      const handlers = project.createOpenApiHandlers({ baseUrl: api.url, env: { GITHUB_TOKEN: "ghp_test" } });
      api.answer(404, { message: "Not Found" });
      const result = await project.execute("create_issue", { owner: "octo", repo: "hello", title: "Flaky test", "X-Request-Id": "req-1" }, handlers);
      expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "NOT_FOUND" });
      expect(api.requests).toHaveLength(1);
      const [request] = api.requests;
      expect(request).toMatchObject({ method: "POST", url: "/repos/octo/hello/issues" });
      expect(request!.headers).toMatchObject({ "x-github-api-version": "2022-11-28", "x-request-id": "req-1", authorization: "Bearer ghp_test" });
      expect(JSON.parse(request!.body)).toEqual({ title: "Flaky test" });
    } finally {
      await api.close();
    }
  });
});

describe("re-import", () => {
  const CURATION = "operations:\n  getOrder: { name: get_order, description: One order by its id. }\n";

  it("keeps the curation, removes what the API dropped, never touches a hand-written contract, and toolc diff classifies the change", async () => {
    const first = await importSpec(SHOP, CURATION);
    const dir = first.dir;
    cpSync(join(dir, "definitions"), join(dir, "base"), { recursive: true });
    writeFileSync(join(dir, "definitions/mine.yaml"), "name: mine\nversion: 1\ndescription: mine\neffect: read\ninput: { type: object }\noutput: { type: object }\n");
    // The API changes: getOrder gains a required query parameter, stats goes away.
    const changed = structuredClone(SHOP) as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
    changed.paths["/orders/{id}"]!.get!.parameters!.push({ name: "expand", in: "query", required: true, schema: { type: "string" } });
    delete changed.paths["/admin/stats"];
    const second = await importSpec(changed, undefined, {}, dir);
    expect(second.result.removed).toEqual(["definitions/stats.yaml"]);
    expect(second.contracts.get_order).toMatchObject({ description: "One order by its id.", input: { required: ["id", "expand"] } });
    expect(second.contracts.mine).toBeDefined();
    expect(readFileSync(join(dir, "definitions/get_order.yaml"), "utf8")).toMatch(/^# toolc import: openapi shop;/m);

    const diff = await runCli(dir, ["diff", "--base", "base", "--definitions", "definitions", "--format", "json"]);
    expect(diff.code).toBe(1);
    const report = JSON.parse(diff.stdout) as { changes: { tool: string; level: string; message: string }[] };
    const breaking = report.changes.filter((c) => c.level === "breaking").map((c) => `${c.tool}: ${c.message}`);
    expect(breaking).toEqual(["stats: tool `stats` removed", "get_order: required property `expand` added"]);
  });

  it("refuses to overwrite a contract it did not write, unless --force", async () => {
    const dir = (await importSpec(SHOP, "", { dryRun: true })).dir;
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "definitions"), { recursive: true });
    writeFileSync(join(dir, "definitions/stats.yaml"), "name: stats\n");
    const refused = await importSpec(SHOP, undefined, {}, dir);
    expect(refused.result.aborted).toBe(true);
    expect(refused.result.problems).toEqual([expect.objectContaining({ severity: "error", file: "definitions/stats.yaml", message: expect.stringMatching(/^exists and was not written by an import of "shop"/) })]);
    expect(readFileSync(join(dir, "definitions/stats.yaml"), "utf8")).toBe("name: stats\n");
    const forced = await importSpec(SHOP, undefined, { force: true }, dir);
    expect(forced.result.aborted).toBe(false);
  });
});
