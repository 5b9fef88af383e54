/**
 * End to end, as a consumer runs it: the pinned Blockfrost description is
 * imported with a curation, compiled, and served by the generated MCP server
 * over stdio with the generated handlers; an SDK client calls its tools.
 * The API is Prism mocking the same description on loopback (it checks each
 * request against the description and answers from it), behind a recording
 * proxy (mock.ts) that shows what arrived and steers single answers.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../compiler/helpers.js";
import { fixtureSpec, importSpec, scratchProject } from "./helpers.js";
import { startPrism, startProxy, type Prism, type Proxy } from "./mock.js";

const STAKE = "stake1ux3g2c9dx2nhhehyrezyxpkstartcqmu9hk63qgfkccw5rqttygt7";
const CURATION = `include:
  operations:
    - GET /accounts/{stake_address}
    - GET /accounts/{stake_address}/rewards
    - POST /utils/txs/evaluate/utxos
operations:
  GET /accounts/{stake_address}/rewards:
    name: account_rewards
    description: Reward history of one stake account.
    retry: { attempts: 3, backoffMs: 10, maxBackoffMs: 1500 }
`;

const SERVER = `import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createServer } from "./generated/index.js";
import { createOpenApiHandlers } from "./openapi-handlers.js";

const server = createServer(createOpenApiHandlers());
await server.connect(new StdioServerTransport());
`;

interface Envelope {
  ok: boolean;
  code?: string;
  reason?: string;
  attempts?: number;
  retryable?: boolean;
}

type CallResult = { isError?: boolean; structuredContent?: unknown; content: { type: string; text?: string }[]; _meta?: Record<string, unknown> };

function failure(result: CallResult): Envelope {
  return JSON.parse(result.content[0]!.text!) as Envelope;
}

let prism: Prism;
let proxy: Proxy;
let client: Client;
let dir: string;

beforeAll(async () => {
  dir = scratchProject("e2e", { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });
  const imported = await importSpec(fixtureSpec("blockfrost", dir), CURATION, {}, dir);
  expect(imported.result.problems.filter((p) => p.severity === "error")).toEqual([]);
  expect(imported.result.tools.map((t) => t.name)).toEqual(["get_accounts_stake_address", "account_rewards", "post_utils_txs_evaluate_utxos"]);
  const generated = await runCli(dir, ["generate"]);
  expect(generated.stderr).not.toMatch(/error/);
  expect(generated.code).toBe(0);
  writeFileSync(join(dir, "server.ts"), SERVER);
  prism = await startPrism(fixtureSpec("blockfrost", dir));
  proxy = await startProxy(prism.url);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", join(dir, "server.ts")],
    cwd: dir,
    env: { ...(process.env as Record<string, string>), BLOCKFROST_BASE_URL: proxy.url, BLOCKFROST_PROJECT_ID: "proj_e2e_secret" },
    stderr: "pipe",
  });
  client = new Client({ name: "openapi-e2e", version: "1.0.0" });
  await client.connect(transport);
}, 300_000);

afterAll(async () => {
  await client?.close();
  await proxy?.stop();
  await prism?.stop();
});

describe("a Blockfrost import served over MCP, against Prism", () => {
  it("leaves toolc check green: the handlers live outside the output folder", async () => {
    const check = await runCli(dir, ["check"]);
    expect(check.stderr).not.toMatch(/foreign|differ/);
    expect(check.code).toBe(0);
  });

  it("lists the curated tools", async () => {
    const { tools } = await client.listTools();
    const rewards = tools.find((t) => t.name === "account_rewards");
    expect(tools.map((t) => t.name).sort()).toEqual(["account_rewards", "get_accounts_stake_address", "post_utils_txs_evaluate_utxos"]);
    // The curation's description, then the credential the handler sends (credentials.ts).
    expect(rewards?.description).toBe('Reward history of one stake account.\n\nCredentials: `project_id`: API key in the header "project_id", from BLOCKFROST_PROJECT_ID.');
    expect(rewards?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it("sends method, path, query and the API key header, and returns Prism's answer validated", async () => {
    proxy.requests.length = 0;
    const result = (await client.callTool({ name: "account_rewards", arguments: { stake_address: STAKE, count: 5, page: 2, order: "desc" } })) as CallResult;
    expect(result.isError).toBeFalsy();
    const [request] = proxy.requests;
    expect(request).toMatchObject({ method: "GET", path: `/accounts/${STAKE}/rewards`, query: { count: ["5"], page: ["2"], order: ["desc"] }, status: 200 });
    expect(request!.headers.project_id).toBe("proj_e2e_secret");
    expect(request!.headers.accept).toBe("application/json");
    // The array answer is the output as it is: this 2025-era client receives it as { result } (docs/contract-format.md), and it is what Prism sent.
    const answer: unknown = JSON.parse(request!.answer);
    expect(Array.isArray(answer)).toBe(true);
    expect(result.structuredContent).toEqual({ result: answer });
  });

  it("returns the array answer itself through the generated typed client", async () => {
    proxy.requests.length = 0;
    const { createClient } = (await import(pathToFileURL(join(dir, "generated/index.ts")).href)) as { createClient(client: Client): Record<string, (input: unknown) => Promise<unknown>> };
    const result = await createClient(client).account_rewards!({ stake_address: STAKE, count: 2 });
    const [request] = proxy.requests;
    expect(result).toEqual({ ok: true, data: JSON.parse(request!.answer) });
  });

  it("sends a JSON body made of the input's body properties", async () => {
    proxy.requests.length = 0;
    const cbor = "84a300818258200000";
    const result = (await client.callTool({ name: "post_utils_txs_evaluate_utxos", arguments: { cbor, additionalUtxoSet: [] } })) as CallResult;
    const [request] = proxy.requests;
    expect(request).toMatchObject({ method: "POST", path: "/utils/txs/evaluate/utxos" });
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request!.body)).toEqual({ cbor, additionalUtxoSet: [] });
    expect(request!.status).toBe(200);
    expect(result.isError).toBeFalsy();
  });

  it("retries a 429 within the policy, honouring Retry-After, and succeeds", async () => {
    proxy.requests.length = 0;
    proxy.steer({ prefer: "code=429", retryAfter: "1" });
    const result = (await client.callTool({ name: "account_rewards", arguments: { stake_address: STAKE } })) as CallResult;
    expect(proxy.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(result.isError).toBeFalsy();
  });

  it("stops retrying at the policy's attempts and says RETRYABLE", async () => {
    proxy.requests.length = 0;
    proxy.steer({ prefer: "code=429" }, { prefer: "code=429" }, { prefer: "code=429" });
    const result = (await client.callTool({ name: "account_rewards", arguments: { stake_address: STAKE } })) as CallResult;
    expect(proxy.requests.map((r) => r.status)).toEqual([429, 429, 429]);
    expect(result.isError).toBe(true);
    expect(failure(result)).toMatchObject({ ok: false, code: "RETRYABLE", retryable: true, attempts: 3 });
  });

  it("turns a 404 into the declared rejection", async () => {
    proxy.requests.length = 0;
    proxy.steer({ prefer: "code=404" });
    const result = (await client.callTool({ name: "get_accounts_stake_address", arguments: { stake_address: STAKE } })) as CallResult;
    expect(proxy.requests.map((r) => r.status)).toEqual([404]);
    expect(failure(result)).toMatchObject({ ok: false, code: "REJECTED", reason: "NOT_FOUND" });
  });

  it.each([
    { name: "an answer of the wrong shape", body: JSON.stringify({ stake_address: 42 }) },
    { name: "an answer that is not JSON", body: "<html>gateway</html>" },
  ])("turns $name into INVALID_OUTPUT", async ({ body }) => {
    proxy.requests.length = 0;
    proxy.steer({ replaceBody: body });
    const result = (await client.callTool({ name: "get_accounts_stake_address", arguments: { stake_address: STAKE } })) as CallResult;
    expect(proxy.requests.map((r) => r.status)).toEqual([200]);
    expect(failure(result)).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
  });

  it("rejects bad arguments before any request is made", async () => {
    proxy.requests.length = 0;
    const result = (await client.callTool({ name: "account_rewards", arguments: { stake_address: STAKE, count: "five" } })) as CallResult;
    expect(failure(result)).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    expect(proxy.requests).toEqual([]);
  });
});
