/** The contract tests target: a vitest file per tool in the tests folder, importing the output folder (and the handlers, when given). */
import type { Target } from "../../targets/target.js";

export const contractTestsTarget: Target = {
  name: "contract-tests",
  root: "tests",
  marker: "generated",
  enabled: (options) => options.tests !== undefined,
  runtime: () => ({ tests: true }),
  async load() {
    const { emitContractTests } = await import("../contract-tests.js");
    return { toolFiles: (tool, options) => (options.tests === undefined ? [] : [emitContractTests(tool, options.tests)]) };
  },
};
