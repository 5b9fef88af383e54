/** The anthropic agent loop of docs/providers.md, verbatim but for the import path; type-checked, never run. */
import type { Handlers } from "../../../generated/providers.js";
import Anthropic from "@anthropic-ai/sdk";
import { createLoopGuard } from "../../../generated/index.js";
import { anthropic } from "../../../generated/providers.js";

declare const handlers: Handlers;

const client = new Anthropic();
const guard = createLoopGuard(); // one per conversation
const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What did customer cus_1 order?" }];
for (let turn = 0; turn < 10 && !guard.stop; turn++) {
  const reply = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: anthropic.tools });
  messages.push({ role: "assistant", content: reply.content });
  const uses = reply.content.filter((block) => block.type === "tool_use");
  if (uses.length === 0) break;
  messages.push({ role: "user", content: await Promise.all(uses.map((block) => anthropic.run(block, handlers, { guard }))) });
}
if (guard.stop) console.error(guard.stop.summary, guard.stop.evidence);
