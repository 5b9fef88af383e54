// Written by `toolc evals` beside the cases: the scripted model, as a promptfoo provider, that CI runs the pack with.
/** Answers each case with the call it expects (`call`), or with no call (`refrain`): the pack's own check that its cases and adapters agree. Swap it for a real provider to evaluate a model. */
export default class ScriptedModel {
  id() {
    return "toolc-scripted-model";
  }

  async callApi(_prompt, context) {
    const evalCase = JSON.parse(context.vars.case);
    return { output: JSON.stringify(evalCase.kind === "call" ? evalCase.expect : null) };
  }
}
