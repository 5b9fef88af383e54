/** The ai-sdk agent loop of docs/providers.md, verbatim but for the import path; type-checked, never run. */
import type { Handlers } from "../../../generated/providers.js";
import { generateText, stepCountIs } from "ai";
import { createLoopGuard } from "../../../generated/index.js";
import { aiSdk } from "../../../generated/providers.js";

declare const handlers: Handlers;

const guard = createLoopGuard(); // one per conversation
const { text } = await generateText({
  model: "openai/gpt-4.1",
  tools: aiSdk.tools(handlers, { guard }),
  stopWhen: [stepCountIs(10), () => guard.stopped],
  prompt: "What did customer cus_1 order?",
});
console.log(guard.stop ? guard.stop.summary : text);
