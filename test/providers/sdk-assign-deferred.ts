/**
 * Compiled by test/providers/sdk-types.test.ts with tsc, never run, against
 * the current SDK majors only: the AI SDK's `toolSearch()` is new in ai 7, so
 * sdk-assign.ts (also checked against the previous majors) leaves it out.
 */
import { toolSearch, type ToolSet } from "ai";
import { aiSdk, type Handlers } from "../../generated/providers.js";

declare const handlers: Handlers;

// Deferred loading: the deferred tools' deferLoading beside the SDK's own search tool.
export const deferredToolSet: ToolSet = { ...aiSdk.tools(handlers), toolSearch: toolSearch() };
