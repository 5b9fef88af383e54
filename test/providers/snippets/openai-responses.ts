/** The openai-responses agent loop of docs/providers.md, verbatim but for the import path; type-checked, never run. */
import type { Handlers } from "../../../generated/providers.js";
import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { createLoopGuard } from "../../../generated/index.js";
import { openai } from "../../../generated/providers.js";

declare const handlers: Handlers;

const client = new OpenAI();
const guard = createLoopGuard(); // one per conversation
const input: ResponseInputItem[] = [{ role: "user", content: "What did customer cus_1 order?" }];
for (let turn = 0; turn < 10 && !guard.stop; turn++) {
  const response = await client.responses.create({ model: "gpt-4.1", input, tools: openai.responsesTools });
  const calls = response.output.filter((item) => item.type === "function_call");
  input.push(...calls);
  if (calls.length === 0) break;
  for (const call of calls) input.push(await openai.run(call, handlers, { guard }));
}
if (guard.stop) console.error(guard.stop.summary, guard.stop.evidence);
