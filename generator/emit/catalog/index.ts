/**
 * The catalog target: a static site of the tools, from the IR alone, as HTML
 * pages (index, one per tool, types, changelog), each page again as Markdown,
 * and `llms.txt`. Pure: the same IR and options give the same bytes. Paths
 * are relative to the catalog's folder.
 */
import type { ContractIR, EmittedFile } from "../../ir.js";
import { headerLine } from "../../printer/header.js";
import { changelogPage } from "./changelog.js";
import { catalogOf, type CatalogOptions } from "./context.js";
import { renderHtml, type SiteFrame } from "./html.js";
import { indexPage, typesPage } from "./index-pages.js";
import { llmsText } from "./llms.js";
import { renderMarkdown } from "./markdown.js";
import type { Page, PageId } from "./model.js";
import { toolPage } from "./tool-page.js";

export type { CatalogOptions, CatalogRelease } from "./context.js";

export function emitCatalog(ir: ContractIR, options: CatalogOptions): EmittedFile[] {
  const catalog = catalogOf(ir, options);
  const withTypes = catalog.types.length > 0;
  const withChangelog = options.releases.length > 0;
  const pages: Page[] = [
    indexPage(catalog),
    ...catalog.tools.map((t) => toolPage(catalog, t)),
    ...(withTypes ? [typesPage(catalog)] : []),
    ...(withChangelog ? [changelogPage(catalog)] : []),
  ];
  const nav: { label: string; page: PageId }[] = [
    { label: "Tools", page: "index" },
    ...(withTypes ? [{ label: "Types", page: "types" as const }] : []),
    ...(withChangelog ? [{ label: "Changelog", page: "changelog" as const }] : []),
  ];
  const header = headerLine(options.definitions);
  const frame: SiteFrame = { title: options.title, nav, header, files: [{ label: "llms.txt", path: "llms.txt" }] };
  const files: EmittedFile[] = pages.flatMap((page) => [
    { path: `${page.id}.html`, text: renderHtml(page, frame) },
    { path: `${page.id}.md`, text: renderMarkdown(page, frame) },
  ]);
  files.push({ path: "llms.txt", text: llmsText(catalog, header) });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
