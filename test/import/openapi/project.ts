/**
 * An imported project as its user runs it: `toolc generate` over the
 * imported contracts, then the generated `execute` and the handlers module
 * loaded into the test, calling an API that is an HTTP server on loopback
 * which records every request and whether the caller gave up on it.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runCli } from "../../compiler/helpers.js";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The caller closed the connection before the answer was sent (its fetch was aborted). */
  abandoned: boolean;
}

export interface LoopbackApi {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** What every answered request gets from now on. */
  answer(status: number, body: unknown): void;
  /** Answers the next requests get, one each, before the current answer applies again. */
  queue(...answers: { status: number; body: unknown; headers?: Record<string, string> }[]): void;
  /** Resolves when `count` requests have been abandoned by their caller. */
  abandoned(count: number): Promise<void>;
  close(): Promise<void>;
}

/** An API on loopback: a path containing `/hang` is never answered; every other request gets the current answer. */
export async function startLoopbackApi(): Promise<LoopbackApi> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  let answer = { status: 200, body: "{}" };
  const queued: { status: number; body: string; headers: Record<string, string> }[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString(), abandoned: false };
      requests.push(recorded);
      res.on("close", () => {
        open.delete(res);
        if (res.writableEnded) return;
        recorded.abandoned = true;
        if (waiting && requests.filter((r) => r.abandoned).length >= waiting.count) waiting.resolve();
      });
      if (req.url!.includes("/hang")) return void open.add(res);
      const next = queued.shift() ?? { ...answer, headers: {} };
      res.writeHead(next.status, { "content-type": "application/json", ...next.headers });
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer: (status, body) => void (answer = { status, body: JSON.stringify(body) }),
    queue: (...answers) => void queued.push(...answers.map((a) => ({ status: a.status, body: a.body === undefined ? "" : JSON.stringify(a.body), headers: a.headers ?? {} }))),
    abandoned: (count) => new Promise<void>((resolve) => {
      if (requests.filter((r) => r.abandoned).length >= count) return resolve();
      waiting = { count, resolve };
    }),
    close: () => new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export type Envelope = { ok: true; data: unknown } | { ok: false; code: string; message: string; reason?: string; attempts?: number };
export type Handler = (input: never, ctx: never) => Promise<unknown>;

/** What the project's generated index and the import's handlers module export, as the test uses them. */
export interface GeneratedProject {
  execute(tool: string, input: unknown, handlers: Record<string, Handler>): Promise<Envelope>;
  createOpenApiHandlers(options?: { baseUrl?: string; env?: Record<string, string> }): Record<string, Handler>;
}

/** Compiles the imported contracts in `dir` with `toolc generate` and loads the modules a user's server would import. */
export async function generateAndLoad(dir: string): Promise<GeneratedProject> {
  const generated = await runCli(dir, ["generate"]);
  if (generated.code !== 0) throw new Error(`toolc generate failed:\n${generated.stderr}`);
  const index = (await import(pathToFileURL(join(dir, "generated/index.ts")).href)) as Pick<GeneratedProject, "execute">;
  const handlers = (await import(pathToFileURL(join(dir, "openapi-handlers.ts")).href)) as Pick<GeneratedProject, "createOpenApiHandlers">;
  return { execute: index.execute, createOpenApiHandlers: handlers.createOpenApiHandlers };
}
