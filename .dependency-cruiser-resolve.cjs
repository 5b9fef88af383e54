/**
 * What dependency-cruiser's resolver is missing for toolc's tsconfig: its
 * `rootDirs`. TypeScript merges the folders listed there into one, so
 * `generator/runtime/sdk2/sdk.ts` importing `./sdk-port.js` means
 * `generator/runtime/sdk-port.ts` (the copy in a project puts them side by
 * side). The cruiser reads this file as a webpack config (only `resolve`), via
 * `options.webpackConfig` in .dependency-cruiser.cjs.
 */
const { readFileSync } = require("node:fs");
const { basename, dirname, isAbsolute, join, relative, resolve } = require("node:path");

/** The tsconfig's rootDirs, absolute. The tsconfig has comments, which JSON.parse does not take. */
function rootDirsOf(tsconfigFile) {
  const text = readFileSync(tsconfigFile, "utf8").replace(/^\s*\/\/.*$/gm, "");
  const dirs = JSON.parse(text).compilerOptions?.rootDirs ?? [];
  return dirs.map((dir) => resolve(tsconfigFile, "..", dir));
}

/** A relative import that resolves nowhere is looked for at the same place in each other root dir. */
class RootDirsPlugin {
  constructor(rootDirs) {
    this.rootDirs = rootDirs;
  }
  apply(resolver) {
    const target = resolver.ensureHook("resolve");
    // Stage 100: after the normal resolution, which wins whenever it finds the file.
    resolver.getHook("resolve").tapAsync({ name: "RootDirsPlugin", stage: 100 }, (request, context, callback) => {
      if (request.rootDirsTried || typeof request.request !== "string" || !request.request.startsWith(".")) return callback();
      // As TypeScript does: the path the import names, found in one root dir, looked for at the same place in the others.
      const wanted = resolve(request.path, request.request);
      const candidates = [];
      for (const root of this.rootDirs) {
        const inside = relative(root, wanted);
        if (inside.startsWith("..") || isAbsolute(inside)) continue;
        for (const other of this.rootDirs) if (other !== root) candidates.push(join(other, inside));
      }
      const next = (i) => {
        if (i >= candidates.length) return callback();
        resolver.doResolve(
          target,
          { ...request, path: dirname(candidates[i]), request: `./${basename(candidates[i])}`, rootDirsTried: true },
          `rootDirs: ${candidates[i]}`,
          context,
          (error, result) => (error || result ? callback(error, result) : next(i + 1)),
        );
      };
      next(0);
    });
  }
}

/** The resolve options for the project whose tsconfig.json is in `baseDir`. */
function resolveOptions(baseDir) {
  return { plugins: [new RootDirsPlugin(rootDirsOf(join(baseDir, "tsconfig.json")))] };
}

module.exports = { resolve: resolveOptions(process.cwd()), resolveOptions };
