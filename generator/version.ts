import { readFileSync } from "node:fs";

/** toolc's own version, from its package.json; it goes into every generated file's header. */
export const TOOLC_VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
