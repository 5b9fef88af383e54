/**
 * The runtime's exported names, as the type checker reads them from the
 * runtime's own sources: an emitter that names a value export of the runtime
 * names it through this table, so a name that the runtime does not export (a
 * typo, a rename in the runtime) fails toolc's own `tsc`, not a consumer's
 * build. The table lists the runtime modules generated code imports; what
 * each exports is `keyof typeof import(...)` of its source, never a list
 * kept by hand. (Type-only exports have no such key in TypeScript; a type an
 * emitter names is checked when the golden and demo outputs are compiled.)
 */
import { valueSymbol, type ImportSymbol } from "../printer/file-builder.js";

/** The runtime modules generated code imports values from, by file name in runtime/. */
interface RuntimeModules {
  readonly api: typeof import("../runtime/api.js");
  readonly apps: typeof import("../runtime/apps.js");
  readonly auth: typeof import("../runtime/auth.js");
  readonly border: typeof import("../runtime/border.js");
  readonly codemode: typeof import("../runtime/codemode.js");
  readonly contract: typeof import("../runtime/contract.js");
  readonly "contract-tests": typeof import("../runtime/contract-tests.js");
  readonly dispatch: typeof import("../runtime/dispatch.js");
  readonly http: typeof import("../runtime/http.js");
  readonly json: typeof import("../runtime/json.js");
  readonly providers: typeof import("../runtime/providers.js");
  readonly "validator-errors": typeof import("../runtime/validator-errors.js");
  /** MCP SDK 2.x only (runtime/sdk2/, copied as runtime/tool-host.ts): mcp-host.ts's `registerToolsOn`. */
  readonly "tool-host": typeof import("../runtime/sdk2/tool-host.js");
  readonly view: typeof import("../runtime/view.js");
}

export type RuntimeModule = keyof RuntimeModules;
/** The value exports of runtime/`M`.ts. */
export type RuntimeExport<M extends RuntimeModule> = keyof RuntimeModules[M] & string;

/** The specifier of runtime/`module`.js from a file `up` folders below the output root ("./" at the root, "../" one below). */
export function runtimeSpecifier(module: RuntimeModule, up = "./"): string {
  return `${up}runtime/${module}.js`;
}

/** An import of the runtime's value export `name` of runtime/`module`.js, from a file `up` below the output root. */
export function runtimeValue<M extends RuntimeModule>(module: M, name: RuntimeExport<M>, up = "./", local?: string): ImportSymbol {
  return valueSymbol(name, runtimeSpecifier(module, up), local);
}
