#!/usr/bin/env node
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("toolc: the compiler is not built; run `npm run build` in the toolc package\n");
  process.exit(2);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
