/** The gemini agent loop of docs/providers.md, verbatim but for the import path; type-checked, never run. */
import type { Handlers } from "../../../generated/providers.js";
import { GoogleGenAI, type Content } from "@google/genai";
import { createLoopGuard } from "../../../generated/index.js";
import { gemini } from "../../../generated/providers.js";

declare const handlers: Handlers;

const ai = new GoogleGenAI({});
const guard = createLoopGuard(); // one per conversation
const contents: Content[] = [{ role: "user", parts: [{ text: "What did customer cus_1 order?" }] }];
for (let turn = 0; turn < 10 && !guard.stop; turn++) {
  const reply = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config: { tools: [{ functionDeclarations: gemini.functionDeclarations }] } });
  contents.push(reply.candidates![0]!.content!);
  if (!reply.functionCalls?.length) break;
  const responses = await Promise.all(reply.functionCalls.map((call) => gemini.run(call, handlers, { guard })));
  contents.push({ role: "user", parts: responses.map((functionResponse) => ({ functionResponse })) });
}
if (guard.stop) console.error(guard.stop.summary, guard.stop.evidence);
