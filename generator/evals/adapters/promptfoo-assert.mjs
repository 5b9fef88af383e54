// Written by `toolc evals` beside the cases: the assertion promptfoo-tests.mjs gives every test.
/** Passes when the model's call (JSON `{ tool, arguments }`, or `null`) is what the case expects, or is not the call it must not make. */
const canonical = (value) =>
  value === null || typeof value !== "object"
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
          .join(",")}}`;

export default function assertCall(output, context) {
  const evalCase = JSON.parse(context.vars.case);
  let call = null;
  try {
    call = typeof output === "string" ? JSON.parse(output) : output;
  } catch {
    call = null;
  }
  if (evalCase.kind === "call") {
    const pass = call !== null && call.tool === evalCase.expect.tool && canonical(call.arguments) === canonical(evalCase.expect.arguments);
    return { pass, score: pass ? 1 : 0, reason: pass ? "made the expected call" : `expected ${canonical(evalCase.expect)}, got ${canonical(call)}` };
  }
  const must = evalCase.mustNotCall;
  const bad = call !== null && call.tool === must.tool && (must.arguments === undefined || canonical(call.arguments) === canonical(must.arguments));
  return { pass: !bad, score: bad ? 0 : 1, reason: bad ? `made the call it must not (${evalCase.why})` : "did not make the forbidden call" };
}
