/**
 * The catalog target (`docs:` in the config): HTML and Markdown pages of the
 * tools, a changelog, llms.txt, in the catalog's folder. Its files need more
 * than the IR (the changelog reads its bases, from git or folders), so they
 * are made once per run from the compile's IR and texts (`runFiles`), and
 * the run's cache key covers what the bases hold (`runKey`).
 */
import { hashText } from "../../hash.js";
import { baseIdentities, definitionsIn, diffConfigKey } from "./bases.js";
import type { Target } from "../target.js";

export const catalogTarget: Target = {
  name: "catalog",
  root: "docs",
  marker: "generated",
  runKey(plan) {
    const docs = plan.catalog;
    if (docs === undefined) return { key: "", diagnostics: [] };
    // The title and folder names, the diff rules, the normalize options, and what each changelog base holds (read without loading them).
    const where = definitionsIn(docs.root, plan.definitions);
    const bases = baseIdentities(docs.changelog, where, docs.root, docs.configFile);
    const key = hashText(
      docs.title,
      where,
      docs.root,
      diffConfigKey(docs.diffConfig),
      JSON.stringify(docs.normalize),
      ...docs.changelog.map((b) => b.base),
      bases.key,
    );
    return { key, diagnostics: bases.diagnostics };
  },
  async load() {
    const { catalogFiles } = await import("./catalog.js");
    return {
      async runFiles(head, plan) {
        if (plan.catalog === undefined) return { files: [], diagnostics: [] };
        const pages = await catalogFiles(plan.catalog, plan.definitions, head);
        return { ...(pages.files === undefined ? {} : { files: pages.files.map((f) => ({ ...f, root: "docs" as const })) }), diagnostics: pages.diagnostics };
      },
    };
  },
};
