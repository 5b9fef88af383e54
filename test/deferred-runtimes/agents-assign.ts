/**
 * Compiled by test/providers/sdk-types.test.ts with tsc, never run: the
 * Agents SDK function tools of providers.ts assigned to @openai/agents'
 * published types (installed in this folder), beside its toolSearchTool().
 */
import type { FunctionTool, Tool } from "@openai/agents";
import { toolSearchTool } from "@openai/agents-openai";
import { openai, type Handlers } from "../../generated/providers.js";

declare const handlers: Handlers;

export const functionTools: FunctionTool[] = openai.agentsTools(handlers);
export const agentTools: Tool[] = [toolSearchTool(), ...openai.agentsTools(handlers)];
