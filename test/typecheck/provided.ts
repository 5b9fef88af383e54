/**
 * What the integration project's global setup (setup.ts) hands to tests:
 * the tsc results of every program, and the fixture projects it built once
 * for all test files. Tests read them with `inject` (fixtures.ts).
 */
import type { CliOutcome } from "../cli/init-project.js";
import type { ImportedSet } from "../import/corpus-sets.js";
import type { ImportedSpec } from "../import/openapi/corpus-specs.js";
import type { SortedErrors } from "../soundness/check.js";
import type { TscResults } from "./programs.js";

export interface TypecheckFixtures {
  /** The folder all fixtures and tsconfig files are in (node_modules linked). */
  readonly base: string;
  /** A consumer project holding only the demo's generated folder and contract tests (contract-tests/project.ts). */
  readonly consumer?: string;
  /** The demo project generated with `--handlers` and handlers that keep the contract. */
  readonly handlers?: string;
  /** The `toolc init` starter after `toolc generate`, with both runs' outcomes. */
  readonly starter?: { readonly dir: string; readonly init: CliOutcome; readonly generate: CliOutcome };
  /** The held-out project (test/e2e/held-out-project.ts). */
  readonly heldOut?: string;
  /** The import corpus sets, in the order of SETS (test/import/corpus-sets.ts). */
  readonly imported?: readonly ImportedSet[];
  /** test/fixtures/billing generated into a project, for its providers.ts. */
  readonly providersBilling?: { readonly dir: string } & CliOutcome;
  /** test/providers/sdk-assign.ts in a folder whose `openai`, `ai` and `@google/genai` are the previous majors, with the versions linked. */
  readonly providersPrevious?: { readonly dir: string; readonly file: string; readonly versions: Readonly<Record<string, string>> };
  /** test/providers/many-tools.ts generated into a project, with sdk-assign.ts copied beside it for its providers.ts (`assign`). */
  readonly providersMany?: { readonly dir: string; readonly assign: string; readonly stdout: string } & CliOutcome;
  /** The OpenAPI corpus descriptions checked with every TypeScript version, imported and generated (test/import/openapi/corpus-specs.ts, real-world-specs.ts). */
  readonly openapi?: {
    readonly blockfrost: ImportedSpec;
    readonly slack: ImportedSpec;
    readonly realWorld: readonly (ImportedSpec & { readonly warningKinds: Readonly<Record<string, number>> })[];
  };
  /** The type-soundness check (test/soundness/check.ts): what was sampled, and tsc's errors by case, per TypeScript version. */
  readonly soundness?: { readonly figures: Record<string, unknown>; readonly byVersion: Record<string, SortedErrors> };
  /** Fixture name → why building it failed (its checks are then missing, and its tests fail saying so). */
  readonly failures: Record<string, string>;
}

declare module "vitest" {
  export interface ProvidedContext {
    tsc: TscResults;
    typecheckFixtures: TypecheckFixtures;
  }
}
