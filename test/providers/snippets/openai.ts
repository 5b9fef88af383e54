/** The openai agent loop of docs/providers.md, verbatim but for the import path; type-checked, never run. */
import type { Handlers } from "../../../generated/providers.js";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { createLoopGuard } from "../../../generated/index.js";
import { openai } from "../../../generated/providers.js";

declare const handlers: Handlers;

const client = new OpenAI();
const guard = createLoopGuard(); // one per conversation
const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What did customer cus_1 order?" }];
for (let turn = 0; turn < 10 && !guard.stop; turn++) {
  const reply = (await client.chat.completions.create({ model: "gpt-4.1", messages, tools: openai.tools })).choices[0]!.message;
  messages.push(reply);
  if (!reply.tool_calls?.length) break;
  for (const call of reply.tool_calls) messages.push(await openai.run(call, handlers, { guard }));
}
if (guard.stop) console.error(guard.stop.summary, guard.stop.evidence);
