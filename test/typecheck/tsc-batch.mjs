/**
 * Runs several tsc programs in one process with one TypeScript version's
 * compiler API, as `tsc -p <tsconfig> --pretty false` would run each: the
 * same diagnostics, in the same order and the same text. One process for
 * all of a version's programs compiles TypeScript's own code once (a new
 * `tsc` process spends a fifth of its CPU time on that).
 *
 *   node tsc-batch.mjs <typescript.js> <jobs.json>
 *
 * jobs.json: [{ "tsconfig": "/abs/tsconfig.x.json", "cwd": "/abs/base" }, …]
 * Prints one JSON object: tsconfig path → what tsc would have printed.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const [typescriptPath, jobsPath] = process.argv.slice(2);
const ts = createRequire(import.meta.url)(typescriptPath);
const jobs = JSON.parse(readFileSync(jobsPath, "utf8"));

/** The diagnostics tsc reports for a program, in its order (executeCommandLine's emitFilesAndReportErrors). */
function diagnosticsOf(program) {
  const all = [...program.getConfigFileParsingDiagnostics()];
  const parsing = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === parsing) {
    all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === parsing) all.push(...program.getSemanticDiagnostics());
    const options = program.getCompilerOptions();
    if (options.noEmit && (options.declaration || options.composite) && all.length === parsing) all.push(...program.getDeclarationDiagnostics());
  }
  all.push(...program.emit().diagnostics);
  return ts.sortAndDeduplicateDiagnostics(all);
}

function run({ tsconfig, cwd }) {
  const system = { ...ts.sys, getCurrentDirectory: () => cwd, onUnRecoverableConfigFileDiagnostic: () => {} };
  const format = { getCurrentDirectory: () => cwd, getCanonicalFileName: (name) => name, getNewLine: () => "\n" };
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, { pretty: false }, system);
  if (config === undefined) return `error: tsc could not read ${tsconfig}\n`;
  const host = ts.createCompilerHost(config.options);
  host.getCurrentDirectory = () => cwd;
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences, host, configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config) });
  return diagnosticsOf(program).map((d) => ts.formatDiagnostic(d, format)).join("");
}

const results = {};
for (const job of jobs) {
  try {
    results[job.tsconfig] = run(job);
  } catch (error) {
    results[job.tsconfig] = `error: tsc failed on ${job.tsconfig}: ${error?.stack ?? error}\n`;
  }
}
process.stdout.write(JSON.stringify(results));
