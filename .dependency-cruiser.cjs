/**
 * The layers of toolc's own source, checked by test/architecture/layers.test.ts
 * (part of `npm test`). docs/architecture.md draws them.
 *
 *   runtime  <  core  <  printer  <  targets  <  pipeline  <  commands
 *
 * - the runtime is copied into consumers' projects, so it imports nothing
 *   from the generator (everything above may import it);
 * - core is what a contract is: loading, the config, normalize and the IR,
 *   diff, the schema toolkit; inside it, load → normalize
 *   → diff, over the shared modules, and the plan's types (core/plan.ts)
 *   over them, which a target reads without importing the pipeline;
 * - the printer prints TypeScript (file builder, literals, type nodes);
 * - a target turns the IR into files: `emit/` (one target layer for now) and
 *   `targets/<name>/`, which import core, the printer and another target's
 *   published symbols (its `index.ts`) only;
 * - the pipeline runs the targets and writes what they print;
 * - the commands on top: cli.ts, commands/, and the command libraries
 *   (`toolc docs`, `import`, `init`), which only cli.ts dispatches to.
 *
 * Each rule names one arrow that must not exist, so a planted violation fails
 * one rule and only it. Type-only imports count: a type that runs backwards
 * is a dependency that runs backwards.
 */

/** Folders and files, as path patterns anchored at the repository root. */
const at = (...paths) => `^generator/(${paths.join("|")})`;

/** Under every other part of core: the IR's types, diagnostics, the content hash, the schema toolkit, Ajv, toolc's prettier options, worker replies, the provider dialects. */
const SHARED = [
  "ir\\.ts$",
  "hash\\.ts$",
  "diagnostics\\.ts$",
  "version\\.ts$",
  "ajv\\.ts$",
  "ajv-shared\\.ts$",
  "discriminators\\.ts$",
  "schema/",
  "format/",
  "providers/",
  "worker-replies\\.ts$",
];
/** Definitions and the config file, from YAML into located sources and settings. */
const LOAD = ["load/", "config/"];
const NORMALIZE = ["normalize/"];
/** What compares two IRs (toolc diff, whose report the catalog prints). */
const DIFF = ["diff/"];
/** The plan's types (core/plan.ts), over the phases: what a target reads of a run without importing the pipeline that resolves it. */
const CORE_VIEWS = ["core/"];
const CORE = [...SHARED, ...LOAD, ...NORMALIZE, ...DIFF, ...CORE_VIEWS];
const PRINTER = ["printer/"];
/** The targets, their interface and their registry (the list emit/index.ts runs). */
const TARGETS = ["emit/", "targets/"];
/** The plan (config, flags and every target's options, resolved once through the registry), the run and the write. */
const PIPELINE = ["plan/", "pipeline/", "write/", "cache\\.ts$"];
/** The libraries of `toolc docs`, `toolc import` and `toolc init`. */
const COMMAND_LIBRARIES = ["docs/", "import/", "init/"];
const COMMANDS = ["commands/", "cli\\.ts$", ...COMMAND_LIBRARIES];
const RUNTIME = ["runtime/", "openapi-runtime/", "otel/"];

/** `from` may import nothing in `to`. */
const forbid = (name, from, to, comment, toPathNot) => ({
  name,
  comment,
  severity: "error",
  from: { path: at(...from) },
  to: toPathNot === undefined ? { path: at(...to) } : { path: at(...to), pathNot: toPathNot },
});

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "A cycle makes two modules one; split what both need into a third.",
      severity: "error",
      from: { path: "^generator/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "runtime-standalone",
      comment: "The runtime is vendored into consumers' projects as it is; it cannot reach the generator.",
      severity: "error",
      from: { path: at(...RUNTIME) },
      to: { path: "^generator/", pathNot: at(...RUNTIME) },
    },
    forbid("core-imports-no-target", CORE, TARGETS, "Core describes contracts; how a target prints them is the target's."),
    forbid(
      "core-below-printer-and-pipeline",
      CORE,
      [...PRINTER, ...PIPELINE, ...COMMANDS],
      "Core knows nothing of printing, running or the commands: no arrow runs back up.",
    ),
    forbid(
      "shared-below-core-phases",
      SHARED,
      [...LOAD, ...NORMALIZE, ...DIFF],
      "The shared modules (IR, diagnostics, the schema toolkit) sit under load, normalize and diff.",
    ),
    forbid(
      "load-before-normalize",
      LOAD,
      [...NORMALIZE, ...DIFF],
      "Loading reads YAML into located sources and settings; it knows nothing of what normalize makes of them.",
    ),
    forbid("normalize-before-diff", NORMALIZE, DIFF, "The IR is built without the diff; the diff compares two of them."),
    {
      name: "printer-imports-core-only",
      comment: "The printer prints TypeScript; it sits under every target and imports only the shared modules and the runtime.",
      severity: "error",
      from: { path: at(...PRINTER) },
      to: { path: "^generator/", pathNot: at(...SHARED, ...PRINTER, ...RUNTIME) },
    },
    {
      name: "target-below-pipeline",
      comment: "A target is a pure function from the IR to file texts; it neither writes nor runs a command.",
      severity: "error",
      from: { path: at(...TARGETS) },
      to: { path: at(...PIPELINE, ...COMMANDS) },
    },
    {
      name: "target-imports-published-symbols",
      comment: "A target uses another target through its published symbols (its index.ts), never its internals.",
      severity: "error",
      from: { path: "^generator/targets/([^/]+)/" },
      to: { path: "^generator/targets/", pathNot: ["^generator/targets/$1/", "^generator/targets/[^/]+/index\\.ts$", "^generator/targets/target\\.ts$"] },
    },
    forbid("pipeline-below-commands", PIPELINE, COMMANDS, "The pipeline is called by the commands, never the other way round."),
    forbid(
      "commands-below-their-libraries",
      ["commands/"],
      COMMAND_LIBRARIES,
      "A command library (docs, import, init) uses commands/; only cli.ts dispatches to it.",
    ),
    {
      name: "cli-is-the-entry",
      comment: "cli.ts parses argv and dispatches; what commands share lives in commands/.",
      severity: "error",
      from: { path: "^generator/", pathNot: "^generator/cli\\.ts$" },
      to: { path: "^generator/cli\\.ts$" },
    },
    {
      name: "no-unresolvable",
      comment: "An import that does not resolve would hide a dependency from every rule above.",
      severity: "error",
      from: { path: "^generator/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Not includeOnly "^generator/": that drops an import that resolves nowhere before no-unresolvable sees it.
    exclude: { path: "^node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // The tsconfig's rootDirs, which the cruiser's resolver does not read (.dependency-cruiser-resolve.cjs).
    webpackConfig: { fileName: ".dependency-cruiser-resolve.cjs" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".js"] },
  },
};
