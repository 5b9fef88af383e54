/**
 * A worker thread's side of worker-pool.ts: a LocalToolCompiler driven by
 * messages, one request at a time, in order.
 */
import { parentPort } from "node:worker_threads";
import { LocalToolCompiler } from "./compile-tool.js";
import type { WorkerReply, WorkerRequest } from "./worker-pool.js";

const compiler = new LocalToolCompiler();
const port = parentPort;
if (port === null) throw new Error("worker-thread.js runs only as a worker thread");

let queue = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  queue = queue.then(async () => {
    let reply: WorkerReply;
    try {
      const result =
        request.kind === "classify" ? await compiler.classify(request.texts) : await compiler.compile(request.typeTexts, request.tools, request.options);
      reply = { id: request.id, result };
    } catch (e) {
      reply = { id: request.id, error: e instanceof Error ? String(e.stack ?? e.message) : String(e) };
    }
    port.postMessage(reply);
  });
});
