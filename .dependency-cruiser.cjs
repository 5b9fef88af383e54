/**
 * The layers of toolc's own source, checked by test/architecture/layers.test.ts
 * (part of `npm test`). docs/architecture.md draws them.
 *
 * A phase imports only from the phases before it and from the foundation:
 * load → normalize → emit → write, with the pipeline and the commands on top.
 * The runtime is copied into consumers' projects, so it imports nothing from
 * the generator. Type-only imports count: a type that runs backwards is a
 * dependency that runs backwards.
 */

/** Folders and files, as path patterns anchored at the repository root. */
const at = (...paths) => `^generator/(${paths.join("|")})`;

/**
 * Under every phase: the IR's types, diagnostics, the schema toolkit, Ajv,
 * prettier in toolc's style, replies from worker threads, and what each provider's API accepts (the
 * dialects that normalize lints with and emit writes with).
 */
const FOUNDATION = ["ir\\.ts$", "diagnostics\\.ts$", "version\\.ts$", "ajv\\.ts$", "ajv-shared\\.ts$", "discriminators\\.ts$", "schema/", "format/", "providers/", "worker-replies\\.ts$"];
/** Definitions and the config file, from YAML into located sources and settings. */
const LOAD = ["load/", "config/"];
/** The IR, and what compares two of them (toolc diff, whose report the catalog prints). */
const NORMALIZE = ["normalize/", "diff/"];
const EMIT = ["emit/"];
const WRITE = ["write/"];
/** What runs the phases: the pipeline and its build cache, the commands, and the commands' own libraries (catalog, import, init). */
const ON_TOP = ["pipeline/", "commands/", "cli\\.ts$", "cache\\.ts$", "docs/", "import/", "init/"];

/** `from` may import nothing in `later`. */
const backward = (name, from, later, comment) => ({
  name,
  comment,
  severity: "error",
  from: { path: at(...from) },
  to: { path: at(...later) },
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
      from: { path: "^generator/(runtime|openapi-runtime|otel)/" },
      to: { path: "^generator/", pathNot: "^generator/(runtime|openapi-runtime|otel)/" },
    },
    backward("foundation-below-phases", FOUNDATION, [...LOAD, ...NORMALIZE, ...EMIT, ...WRITE, ...ON_TOP], "The shared modules (IR, diagnostics, the schema toolkit) sit under every phase."),
    backward("load-before-normalize", LOAD, [...NORMALIZE, ...EMIT, ...WRITE, ...ON_TOP], "Loading reads YAML into located sources; it knows nothing of what later phases make of them."),
    backward("normalize-before-emit", NORMALIZE, [...EMIT, ...WRITE, ...ON_TOP], "The IR is built without knowing how it is printed."),
    backward("emit-before-write", EMIT, [...WRITE, ...ON_TOP], "Emitters are pure functions from the IR to file texts; they do not write or format."),
    backward("write-last", WRITE, ON_TOP, "Writing takes planned files; it does not call back into what planned them."),
    backward("pipeline-below-commands", ["pipeline/"], ["commands/", "cli\\.ts$"], "The pipeline is called by the commands, never the other way round."),
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
    includeOnly: "^generator/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".js"] },
  },
};
