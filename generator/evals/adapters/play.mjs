// Written by `toolc evals` beside the cases; plain JavaScript with no imports, so any test runner can load it.
/**
 * Plays one eval case (docs/agent-loop.md#the-eval-pack) against a project's
 * generated API (`execute`, `createLoopGuard`, `contracts`) and a model: a
 * function from a case's prompt (and, for a correction, the INVALID_INPUT
 * envelope) to the call it makes, `{ tool, arguments }`, or null for none.
 * Resolves to `{ pass, detail }`; never throws for a failing case.
 */

/** Every case of every `*.jsonl` file in a pack's folder, given the file texts by name. */
export function parsePack(files) {
  const cases = [];
  for (const [name, text] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        cases.push(JSON.parse(line));
      } catch {
        throw new Error(`${name}:${i + 1}: not a JSON line`);
      }
    });
  }
  return cases;
}

const canonical = (value) =>
  value === null || typeof value !== "object"
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
          .join(",")}}`;

const sameCall = (a, b) => a !== null && b !== null && a.tool === b.tool && canonical(a.arguments) === canonical(b.arguments);

/** The value at an issue path (`a.b[0]`), or undefined. */
function at(value, path) {
  if (path === "") return value;
  let node = value;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[/^\d+$/.test(part) && Array.isArray(node) ? Number(part) : part];
  }
  return node;
}

function scriptedHandler(evalCase) {
  return (_input, ctx) => {
    const h = evalCase.handler;
    if (h === "output") return evalCase.output;
    if (h === "invalid-output") return { "toolc-evals": "not the tool's output" };
    if (h === "transient") {
      const error = new Error("scripted transient failure");
      error.name = "TransientError";
      throw Object.assign(error, { transient: true });
    }
    if (h === "throw") throw new Error("scripted failure after the request was sent");
    return ctx.reject(h.reject);
  };
}

async function playScenario(evalCase, api) {
  const guard = api.createLoopGuard();
  const handlers = { [evalCase.tool]: scriptedHandler(evalCase) };
  const options = { guard, sleep: async () => {}, random: () => 0, classify: (e) => (e && e.transient === true ? "transient" : undefined) };
  const seen = [];
  for (const input of evalCase.calls) {
    const result = await api.execute(evalCase.tool, input, handlers, options);
    seen.push(result.ok ? { code: "OK" } : { code: result.code, ...(result.reason === undefined ? {} : { reason: result.reason }) });
  }
  const stop = guard.stop === undefined ? null : guard.stop.reason;
  const pass = canonical(seen) === canonical(evalCase.steps) && stop === evalCase.stop;
  return { pass, detail: pass ? "" : `steps ${canonical(seen)} (expected ${canonical(evalCase.steps)}), stop ${stop} (expected ${evalCase.stop})` };
}

/** Plays `evalCase`; `model(evalCase, envelope?)` is the model under test. */
export async function playCase(evalCase, api, model) {
  switch (evalCase.kind) {
    case "scenario":
      return playScenario(evalCase, api);
    case "call": {
      const call = await model(evalCase);
      const pass = sameCall(call, evalCase.expect);
      return { pass, detail: pass ? "" : `called ${canonical(call)}, expected ${canonical(evalCase.expect)}` };
    }
    case "refrain": {
      const call = await model(evalCase);
      const bad =
        call !== null && call.tool === evalCase.mustNotCall.tool && (evalCase.mustNotCall.arguments === undefined || sameCall(call, evalCase.mustNotCall));
      return { pass: !bad, detail: bad ? `made the call it must not: ${canonical(call)}` : "" };
    }
    case "correct": {
      // A handler that never answers usefully: an invalid call never reaches it, and the executor checks the input only when the tool has one.
      const envelope = await api.execute(evalCase.tool, evalCase.first.arguments, { [evalCase.tool]: () => undefined }, {});
      if (envelope.ok || envelope.code !== "INVALID_INPUT") return { pass: false, detail: "the first call is not INVALID_INPUT under this contract" };
      const call = await model(evalCase, envelope);
      if (call === null || call.tool !== evalCase.tool) return { pass: false, detail: `no new call of ${evalCase.tool}` };
      const changed = evalCase.paths.some((p) => canonical(at(call.arguments, p) ?? null) !== canonical(at(evalCase.first.arguments, p) ?? null));
      // Valid: the contract's validator says so through execute, with a handler that only records.
      let valid = false;
      await api.execute(evalCase.tool, call.arguments, { [evalCase.tool]: () => ((valid = true), undefined) }, {});
      const pass = changed && valid;
      return { pass, detail: pass ? "" : `correction ${canonical(call)}: ${changed ? "" : "changes no named field; "}${valid ? "" : "still invalid"}` };
    }
    default:
      return { pass: false, detail: `unknown case kind ${JSON.stringify(evalCase.kind)}` };
  }
}

/**
 * The scripted model CI runs the pack with: it makes the expected call,
 * refrains where it must, and corrects an invalid call from the contract's
 * first valid example (`corrections` maps a tool to it).
 */
export function scriptedModel(corrections) {
  return async (evalCase) => {
    if (evalCase.kind === "call") return evalCase.expect;
    if (evalCase.kind === "correct") return corrections[evalCase.tool] === undefined ? null : { tool: evalCase.tool, arguments: corrections[evalCase.tool] };
    return null;
  };
}

/** The scripted model's corrections: each tool's first `call` case's arguments. */
export function correctionsOf(cases) {
  const out = {};
  for (const c of cases) if (c.kind === "call" && !(c.tool in out)) out[c.tool] = c.expect.arguments;
  return out;
}
