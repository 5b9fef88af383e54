/**
 * Which credential each imported tool sends (issue #38), said where a
 * reader looks: in the contract's description, which the catalog shows on
 * the tool's page, and in the import report's per-tool table.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportMarkdown } from "../../../generator/import/openapi/report-file.js";
import { runCli } from "../../compiler/helpers.js";
import { importSpec, OK_OBJECT, openapi30, scratchProject } from "./helpers.js";

const SPEC = openapi30(
  {
    "/orders": {
      get: { operationId: "listOrders", responses: { 200: OK_OBJECT } },
      post: { operationId: "createOrder", security: [{ apiKey: [] }, { bearer: [] }], responses: { 201: OK_OBJECT } },
    },
    "/health": { get: { operationId: "health", security: [], responses: { 200: OK_OBJECT } } },
    "/reports": { get: { operationId: "report", security: [{ oauth: ["reports:read"] }], responses: { 200: OK_OBJECT } } },
    "/legacy": { get: { operationId: "legacy", security: [{ bearer: [], basic: [] }, {}], responses: { 200: OK_OBJECT } } },
  },
  {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer" },
      apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
      basic: { type: "http", scheme: "basic" },
      oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://shop.example/token", scopes: { "reports:read": "read" } } } },
    },
  },
  { security: [{ bearer: [] }] },
);

const EXPECTED: Record<string, string> = {
  listOrders: "`bearer`: bearer token from SHOP_BEARER_TOKEN",
  createOrder: '`apiKey`: API key in the header "X-Api-Key", from SHOP_API_KEY; or `bearer`: bearer token from SHOP_BEARER_TOKEN',
  health: "none (the description exempts this operation from its security schemes)",
  report: "`oauth`: OAuth 2.0 bearer token from SHOP_OAUTH_TOKEN, else one obtained with SHOP_OAUTH_CLIENT_ID and SHOP_OAUTH_CLIENT_SECRET",
  legacy:
    "`bearer`: bearer token from SHOP_BEARER_TOKEN and `basic`: basic auth from SHOP_BASIC_USERNAME and SHOP_BASIC_PASSWORD; or none (the description allows anonymous calls)",
};

describe("credentials per tool", () => {
  it("each contract's description ends with the credentials its handler sends, and the import report lists them per tool", async () => {
    const { contracts, result } = await importSpec(SPEC);
    const said = Object.fromEntries(Object.keys(EXPECTED).map((tool) => [tool, /\n\nCredentials: (.*)\.$/s.exec(contracts[tool]!.description as string)?.[1]]));
    expect(said).toEqual(EXPECTED);
    const section = reportMarkdown(result).split(/^## /m).find((s) => s.startsWith("Credentials per tool"))!;
    expect(section).toContain("| createOrder | POST /orders | '" + "apiKey': API key in the header \"X-Api-Key\", from SHOP_API_KEY; or 'bearer': bearer token from SHOP_BEARER_TOKEN |");
    expect(section.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| tool") && !l.startsWith("| ---"))).toHaveLength(5);
  });

  it("a description that declares no scheme adds no sentence, and the report says no handler sends a credential", async () => {
    const { contracts, result } = await importSpec(openapi30({ "/a": { get: { operationId: "a", summary: "Get a", responses: { 200: OK_OBJECT } } } }));
    expect(contracts.a!.description).toBe("Get a");
    expect(reportMarkdown(result)).toContain("The description declares no security scheme: no handler sends a credential.");
  });

  it("the catalog's page of a tool says which credential it sends", { timeout: 120_000 }, async () => {
    const dir = scratchProject("credentials-catalog");
    await importSpec(SPEC, undefined, {}, dir);
    const docs = await runCli(dir, ["docs", "--out", "catalog"]);
    expect(docs.code).toBe(0);
    const page = readFileSync(join(dir, "catalog/tools/createOrder.md"), "utf8");
    expect(page).toContain("Credentials: `apiKey`: API key in the header");
  });
});
