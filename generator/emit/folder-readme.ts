/**
 * `README.md` of the output folder: a map for whoever opens it. Most of the
 * folder is runtime and per-tool code that no one imports by hand; the map
 * says which modules are the API, that nothing here is edited (the YAML is),
 * and what each subfolder holds. It depends only on which parts the project
 * generates, not on the tools, so adding a tool never changes it (but the one
 * that makes a project's tools' code grouped, emit/tool-code/groups.ts).
 */
import type { ContractIR, EmittedFile } from "../ir.js";
import { CHUNKS_FOLDER } from "./copies.js";
import { SHARED_FOLDER } from "./copies/named-types.js";
import { headerLine } from "../printer/header.js";
import { toolsPerChunk } from "./tool-code/groups.js";

export interface FolderReadmeParts {
  /** providers.ts is generated (the config's `providers:` is not `false`). */
  readonly providers: boolean;
  /** mcp-host.ts is generated (MCP SDK 2.x). */
  readonly host?: boolean;
  /** schemas/<name>.json is generated (the config's `schemasJson: true`). */
  readonly schemas?: boolean;
  /** The config's `toolsPerChunk`, if set (emit/tool-code/groups.ts). */
  readonly toolsPerChunk?: number | undefined;
}

type Row = readonly [path: string, what: string];

function table(rows: readonly Row[]): string {
  return ["| path | what |", "| --- | --- |", ...rows.map(([path, what]) => `| ${path} | ${what} |`)].join("\n");
}

function importRows(parts: FolderReadmeParts): Row[] {
  return [
    [
      "`index.ts`",
      "the API: `contracts`, `Handlers` and a `<Name>Handler` per tool, `execute`, `createServer`, `createClient`, `verifyServer`, `TransientError`, and every tool's input, output and named type; it needs no Node types",
    ],
    ["`http.ts`", "`createHttpHandler`, the Streamable HTTP entry for Node's `http` server (import it only if you serve HTTP on Node)"],
    ["`fetch.ts`", "`createFetchHandler`, the same entry on web-standard `Request`/`Response`, for Workers, Deno, Bun and route handlers; no Node API"],
    ...(parts.host === true
      ? [
          [
            "`mcp-host.ts`",
            "`registerTools`, the same tools on an `McpServer` of your own (`mcp-handler`, `agents`, hand-written resources and prompts)",
          ] as const,
        ]
      : []),
    ...(parts.providers
      ? [
          [
            "`providers.ts`",
            "`openai`, `anthropic`, `gemini` and `aiSdk`: the same tools in each provider's format, each with a `run` that goes through the executor",
          ] as const,
        ]
      : []),
  ];
}

function restRows(ir: ContractIR, parts: FolderReadmeParts): Row[] {
  const types = ir.typeFiles.length > 0;
  return [
    [
      "`contracts.ts`",
      "every tool's compiled contract (served schemas, policy, the loader of its chunk), re-exported by `index.ts`; past about 1 MB, written in parts under `contracts/` that it re-exports",
    ],
    ["`tools/<name>.ts`", "a tool's types: `<Name>Input`, `<Name>ResolvedInput`, `<Name>Output`, `<Name>Reason` (re-exported by `index.ts`)"],
    ...(types ? [["`types/<file>.ts`", "the named types of a types file (re-exported by `index.ts`)"] as const] : []),
    ...(toolsPerChunk(ir.tools.length, parts.toolsPerChunk) > 1
      ? [
          [
            `\`${CHUNKS_FOLDER}/group-<n>.ts\``,
            "the code of a group of tools, a function per tool: a tool's first call loads its group's module and runs its function, which makes its Ajv validators (compiled ahead of time) and the copies of its input and output",
          ] as const,
        ]
      : ([
          [`\`${CHUNKS_FOLDER}/<name>.ts\``, "what a tool's first call loads: its validators and the copies of its input and output"],
          ["`validators/<name>.ts`", "a tool's Ajv standalone validators, compiled ahead of time"],
        ] as const)),
    ...(types ? [[`\`${CHUNKS_FOLDER}/${SHARED_FOLDER}/<file>.ts\``, "the copies of named types, shared by the tools' code that uses them"] as const] : []),
    ...(types ? [["`validators/types/<file>.ts`", "the validators of named types, shared by the tools that use them"] as const] : []),
    ...(parts.schemas === true ? [["`schemas/<name>.json`", "what `tools/list` serves for a tool, and its policy, as plain JSON"] as const] : []),
    ...(ir.tools.some((tool) => tool.ui?.view !== undefined)
      ? ([
          ["`views.ts`", "the views (MCP Apps) `createServer` serves as `ui://` resources, each view's HTML embedded"],
          ["`views/<name>.ts`", "a view's typed wrapper over the extension's `App`: its tool's input and result, and the tools it may call"],
        ] as const)
      : []),
    ["`runtime/`", "toolc's runtime (executor, server, client, format checks), copied as it is; reach it through `index.ts`"],
  ];
}

export function emitFolderReadme(ir: ContractIR, parts: FolderReadmeParts): EmittedFile {
  const count = importRows(parts).length;
  const modules = `these ${["", "one", "two", "three", "four", "five"][count] ?? count} modules`;
  const text = [
    `<!-- ${headerLine("the definitions folder")} -->`,
    "",
    "# Generated by toolc",
    "",
    "Every file in this folder is written by `toolc generate` from the YAML tool contracts.",
    "Do not edit any of them: edit the contract and run `toolc generate` again.",
    "`toolc check` fails while the folder differs from what the contracts compile to, and the next `generate` overwrites a hand edit.",
    "",
    "## What to import",
    "",
    table(importRows(parts)),
    "",
    `Import nothing else directly: the rest of the folder is what ${modules} use.`,
    "",
    "## What the rest is",
    "",
    table(restRows(ir, parts)),
    "",
    "Contract tests, when the project has them, are generated into their own folder (`tests:` in toolc.config.yaml).",
    "",
  ].join("\n");
  return { path: "README.md", text };
}
