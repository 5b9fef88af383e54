/**
 * Every target toolc writes, in one list: emit/index.ts emits through it,
 * the plan parses each target's config section through it, and the run adds
 * each target's run-level files and cache key from it. A new target is a
 * folder with its descriptor (targets/target.ts) and a line here.
 */
import { catalogTarget } from "./catalog/index.js";
import { contractTestsTarget } from "../emit/contract-tests/target.js";
import { fetchTarget } from "../emit/fetch-target.js";
import { hostTarget } from "../emit/host-target.js";
import { httpTarget } from "../emit/http-target.js";
import { mcpTarget } from "../emit/mcp-target.js";
import { providersTarget } from "../emit/providers/target.js";
import { typesTarget } from "../emit/types/target.js";
import { validatorsTarget } from "../emit/validators/target.js";
import { codeModeTarget } from "./codemode/index.js";
import { appsTarget } from "./apps/index.js";
import { schemasJsonTarget } from "./schemas-json/index.js";
import { serverJsonTarget } from "./server-json/index.js";
import { mcpbTarget } from "./mcpb/index.js";
import type { Target } from "./target.js";

export const TARGETS: readonly Target[] = [
  typesTarget,
  validatorsTarget,
  mcpTarget,
  httpTarget,
  fetchTarget,
  hostTarget,
  providersTarget,
  contractTestsTarget,
  catalogTarget,
  serverJsonTarget,
  codeModeTarget,
  mcpbTarget,
  appsTarget,
  schemasJsonTarget,
];
