/**
 * A view's typed wrapper, `views/<tool>.ts`: the extension's `App` with the
 * tool's input, its result as toolc's envelope typed by the output schema,
 * and `callTool` typed for the tools its contract's `ui.calls` names. A view
 * written against it stops compiling when the contract changes what it reads.
 */
import type { ContractIR, EmittedFile, ToolIR } from "../../ir.js";
import { code, FileBuilder, typeSymbol, valueSymbol } from "../../printer/file-builder.js";
import { runtimeValue } from "../../emit/runtime-symbols.js";
import { headerComment } from "../../printer/header.js";
import { fittedLiteral, jsDoc, propertyKey } from "../../printer/literal.js";
import { toolExportNames, toolFileName, toolTypeName } from "../../emit/ts-names.js";

/** The package the wrapper builds on: the view's side of the extension. */
export const EXT_APPS_PACKAGE = "@modelcontextprotocol/ext-apps";

/** The names a view's wrapper exports: `create<Base>View`, and its types. */
export function viewExportNames(tool: ToolIR): { create: string; view: string; calls: string } {
  return { create: `create${toolTypeName(tool)}View`, view: `${toolTypeName(tool)}View`, calls: `${toolTypeName(tool)}ViewCalls` };
}

function toolTypes(tool: ToolIR) {
  const names = toolExportNames(toolTypeName(tool));
  const from = `../tools/${toolFileName(tool)}.js`;
  return { input: typeSymbol(names.input, from), output: typeSymbol(names.output, from), reason: typeSymbol(names.reason, from) };
}

export function emitViewWrapper(tool: ToolIR, ir: ContractIR): EmittedFile {
  const file = new FileBuilder(`views/${toolFileName(tool)}.ts`, headerComment(tool.source));
  const names = viewExportNames(tool);
  file.reserve(names.create, names.view, names.calls, "App");
  const own = toolTypes(tool);
  const app = valueSymbol("App", EXT_APPS_PACKAGE);
  const toolResult = typeSymbol("ToolResult", "../runtime/api.js");
  const resultOf = runtimeValue("view", "viewResultOf", "../");
  const called = (tool.ui?.view?.calls ?? []).flatMap((name) => ir.tools.filter((t) => t.name === name));
  const callEntries = called.map((t) => {
    const types = toolTypes(t);
    return code`  ${propertyKey(t.name)}: {\n    input: ${types.input};\n    output: ${types.output};\n    reason: ${types.reason};\n  };\n`;
  });
  file.add(
    code`${jsDoc([`The tools the view of \`${tool.name}\` calls (its contract's \`ui.calls\`): each one's input, output and rejection reasons.`])!}
export interface ${names.calls} {
${callEntries}}`,
    code`${jsDoc([`The view of \`${tool.name}\`: the extension's \`App\`, typed by the contracts.`])!}
export interface ${names.view} {
  /** The extension's \`App\`, for everything this wrapper does not type (host context, display mode, messages). */
  readonly app: ${app};
  /** The tool's arguments, when the host sends them. */
  onInput(handler: (input: ${own.input}) => void): void;
  /** The tool's result: its output (\`structuredContent\`, typed by the output schema), or toolc's failure envelope. */
  onResult(handler: (result: ${toolResult}<${own.output}, ${own.reason}>) => void): void;
  /** Calls a tool the contract lets the view call, through the host and the server's border (validation, scopes, confirmation): its output, or its failure envelope (INVALID_INPUT, REJECTED, ...). */
  callTool<K extends keyof ${names.calls} & string>(
    name: K,
    input: ${names.calls}[K]["input"],
  ): Promise<${toolResult}<${names.calls}[K]["output"], ${names.calls}[K]["reason"]>>;
  /** Connects to the host (the parent window); set the handlers first. */
  connect(): Promise<void>;
}`,
    code`${jsDoc([`The view of \`${tool.name}\` on a new \`App\` named \`info\`.`])!}
export function ${names.create}(
  info: { name: string; version: string } = ${fittedLiteral({ name: `${tool.name} view`, version: String(tool.version) })},
): ${names.view} {
  const app = new ${app}(info);
  return {
    app,
    onInput(handler) {
      app.ontoolinput = (params) => handler((params.arguments ?? {}) as ${own.input});
    },
    onResult(handler) {
      app.ontoolresult = (params) => handler(${resultOf}(params, ${fittedLiteral(tool.name)}));
    },
    async callTool(name, input) {
      const result = await app.callServerTool({ name, arguments: input });
      return ${resultOf}(result, name);
    },
    connect: () => app.connect(),
  };
}`,
  );
  return { path: file.path, text: file.toText() };
}
