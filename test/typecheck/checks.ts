/**
 * The programs besides the matrix, and which check goes where. Each program
 * is one set of compiler options, run once per TypeScript version over all
 * its checks:
 * - `consumer`: what a consumer project compiles (contract tests, handlers,
 *   the init starter, imported corpora, the OpenAPI imports of Blockfrost
 *   and Slack, held-out code, emitted types) under every strict flag,
 *   NodeNext, Node's types, no DOM.
 * - `providers`: the provider exports against the official SDKs, whose
 *   declarations need the DOM lib, under every strict flag (the demo's,
 *   billing's, and a project of 1,300 tools).
 * - `strict`: plain `--strict`, for checks that must hold without the extra
 *   flags (README snippets; `@ts-expect-error` cases that must fail on
 *   `strict` alone; the type-soundness samples).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { STRICTEST } from "../helpers/typescripts.js";
import { projectModules } from "../import/openapi/corpus-specs.js";
import type { TscCheck, TscProgram } from "./programs.js";
import type { TypecheckFixtures } from "./provided.js";
import { projectFiles } from "../helpers/target-files.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where `toolc generate` puts contract tests in a project that lists vitest (contract-tests/project.ts). */
const TESTS_DIR = "test/toolc";

/** The agent loops of docs/providers.md, one file each, in the document's order. */
export const SNIPPETS = ["openai", "openai-responses", "anthropic", "gemini", "ai-sdk"];

/** The demo's provider exports (providers.ts, first) and the runtime only they import, relative to the repository: what the registry's providers target writes. */
export async function providerFiles(): Promise<string[]> {
  const files = await projectFiles(ROOT, {}, { catalog: false });
  return [...files.byTarget.get("providers")!, ...files.runtimeOf.get("providers")!];
}

/**
 * The previous majors of the provider SDKs whose latest needs Node.js 22
 * (their `engines`), still what a project on Node.js 20 installs: package
 * name → its alias among the devDependencies.
 */
export const PREVIOUS_MAJORS: Readonly<Record<string, string>> = { openai: "openai-6", ai: "ai-6", "@google/genai": "google-genai-2" };

const NODE_PROJECT = {
  target: "ES2022",
  lib: ["ES2023"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules/@types")],
  skipLibCheck: true,
  noEmit: true,
  noErrorTruncation: true,
};

const contractTests = (dir: string): string[] => readdirSync(join(dir, TESTS_DIR)).map((f) => join(dir, TESTS_DIR, f));

/** A check over `files` answering for everything under `dir`. */
const inFolder = (name: string, dir: string, files: readonly string[]): TscCheck => ({ name, files, owns: [dir] });

function consumerChecks(f: TypecheckFixtures, typesProject: readonly string[]): TscCheck[] {
  const checks: TscCheck[] = [];
  if (f.consumer) checks.push(inFolder("consumer", f.consumer, contractTests(f.consumer)));
  if (f.handlers) checks.push(inFolder("handlers", f.handlers, contractTests(f.handlers)));
  if (f.starter)
    checks.push(
      inFolder(
        "starter",
        f.starter.dir,
        ["src/server.ts", "src/handlers.ts"].map((p) => join(f.starter!.dir, p)),
      ),
    );
  if (f.heldOut) checks.push(inFolder("held-out", f.heldOut, [join(f.heldOut, "use.ts")]));
  f.imported?.forEach((set, i) => checks.push(inFolder(`import/${i}`, set.dir, [join(set.dir, "generated/index.ts")])));
  for (const spec of [f.openapi?.blockfrost, f.openapi?.slack, ...(f.openapi?.realWorld ?? [])])
    if (spec && spec.tools > 0) checks.push(inFolder(`openapi/${spec.name}`, spec.dir, projectModules(spec.dir)));
  if (typesProject.length > 0) checks.push(inFolder("emitted-types", join(typesProject[0]!, ".."), typesProject));
  return checks;
}

function providerChecks(f: TypecheckFixtures, negative: string, providers: readonly string[]): TscCheck[] {
  const generated = join(ROOT, "generated");
  const checks: TscCheck[] = [
    {
      name: "sdk-assign",
      files: [
        join(ROOT, "test/providers/sdk-assign.ts"),
        join(ROOT, "test/providers/sdk-assign-deferred.ts"),
        ...SNIPPETS.map((s) => join(ROOT, "test/providers/snippets", `${s}.ts`)),
      ],
      owns: [join(ROOT, "test/providers"), generated],
    },
    { name: "provider-modules", files: [join(ROOT, providers[0]!)], owns: providers.map((p) => join(ROOT, p)) },
    // @openai/agents is installed in its own folder (npm run runtimes), whose node_modules this file resolves from.
    { name: "agents-assign", files: [join(ROOT, "test/deferred-runtimes/agents-assign.ts")], owns: [join(ROOT, "test/deferred-runtimes")] },
    inFolder("wrong-provider", join(negative, ".."), [negative]),
  ];
  if (f.providersBilling) checks.push(inFolder("billing", f.providersBilling.dir, [join(f.providersBilling.dir, "generated/providers.ts")]));
  if (f.providersPrevious) checks.push(inFolder("sdk-assign-previous", f.providersPrevious.dir, [f.providersPrevious.file]));
  if (f.providersMany) checks.push(inFolder("many-tools", f.providersMany.dir, [join(f.providersMany.dir, "generated/providers.ts"), f.providersMany.assign]));
  return checks;
}

/** Files the setup wrote besides the fixture projects. */
export interface CheckFiles {
  /** The emitted-types project's files (test/emit/types/soundness-cases.ts), check.ts first. */
  readonly typesProject: readonly string[];
  /** A module that assigns one provider's export to another's type. */
  readonly wrongProvider: string;
  /** The type-soundness check file (test/soundness/check.ts), if it was built. */
  readonly soundness: string | undefined;
  /** The demo's provider modules (providerFiles). */
  readonly providers: readonly string[];
}

/** The programs for the fixtures in `f` and the `files` written for them. */
export function otherPrograms(f: TypecheckFixtures, files: CheckFiles): TscProgram[] {
  const { typesProject, wrongProvider, soundness, providers } = files;
  const strictChecks: TscCheck[] = [
    { name: "readme", files: [join(ROOT, "test/e2e/readme-snippets.ts")], owns: [join(ROOT, "test/e2e"), join(ROOT, "generated")] },
  ];
  if (typesProject.length > 0) strictChecks.push(inFolder("emitted-types", join(typesProject[0]!, ".."), typesProject));
  if (soundness !== undefined) strictChecks.push(inFolder("type-soundness", join(soundness, ".."), [soundness]));
  return [
    { name: "consumer", options: { ...NODE_PROJECT, ...STRICTEST }, checks: consumerChecks(f, typesProject), base: f.base },
    {
      name: "providers",
      options: { ...NODE_PROJECT, ...STRICTEST, lib: ["ES2023", "DOM"] },
      checks: providerChecks(f, wrongProvider, providers),
      base: f.base,
    },
    { name: "strict", options: { ...NODE_PROJECT, strict: true }, checks: strictChecks, base: f.base },
  ];
}
