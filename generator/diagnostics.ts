/**
 * Diagnostics: every problem with a definition is one of these, located at
 * the YAML node that caused it and printed as `file:line:col: error TCnnn: message`.
 * The codes are stable; docs/diagnostics.md lists them.
 */
import type { Diagnostic, SourceLocation } from "./ir.js";

export const Codes = {
  yamlSyntax: "TC001",
  unknownKey: "TC002",
  invalidValue: "TC003",
  missingField: "TC004",
  emptyDefinitions: "TC005",
  configNotFound: "TC006",
  duplicateTool: "TC010",
  invalidToolName: "TC011",
  nonPortableName: "TC012",
  identifierClash: "TC013",
  reservedToolName: "TC014",
  danglingRef: "TC020",
  refCycle: "TC021",
  duplicateType: "TC022",
  moduleClash: "TC023",
  generatedNameClash: "TC024",
  exponentialUnion: "TC025",
  unsupportedKeyword: "TC030",
  schemaCompile: "TC031",
  rootNotObject: "TC032",
  unknownFormat: "TC033",
  invalidDefault: "TC034",
  unsafePattern: "TC035",
  unboundedInput: "TC036",
  tooDeep: "TC037",
  unsupportedDialect: "TC038",
  untrackedSensitive: "TC039",
  unsatisfiable: "TC026",
  unsafeRetry: "TC040",
  badIdempotencyKey: "TC041",
  annotationConflict: "TC042",
  unscopedDestructive: "TC043",
  exampleInvalid: "TC050",
  invalidExampleIsValid: "TC051",
  invalidExamplePaths: "TC052",
  badRejectedExample: "TC053",
  writeFailed: "TC060",
  openaiNotStrict: "TC070",
  anthropicNotStrict: "TC071",
  providerName: "TC072",
  mcpHeaderName: "TC080",
  mcpHeaderPlacement: "TC081",
  mcpHeaderType: "TC082",
  duplicateMcpHeader: "TC083",
  sensitiveMcpHeader: "TC084",
  mcpHeaderUnsafeInteger: "TC085",
  changelogBase: "TC090",
  uiView: "TC100",
  uiDomain: "TC101",
  uiUriClash: "TC102",
  uiCalls: "TC103",
} as const;

export type DiagnosticCode = (typeof Codes)[keyof typeof Codes];

/**
 * The codes that are warnings (TC090 is an error too, when a base cannot be
 * read): the only ones the config's `diagnostics.ignore` may silence, and
 * then only their warnings. docs/diagnostics.md gives each its severity.
 */
export const WARNING_CODES: readonly string[] = [
  Codes.nonPortableName,
  Codes.unboundedInput,
  Codes.annotationConflict,
  Codes.unscopedDestructive,
  Codes.openaiNotStrict,
  Codes.anthropicNotStrict,
  Codes.providerName,
  Codes.mcpHeaderUnsafeInteger,
  Codes.changelogBase,
];

export function error(at: SourceLocation, code: DiagnosticCode, message: string): Diagnostic {
  return { ...at, severity: "error", code, message };
}

export function warning(at: SourceLocation, code: DiagnosticCode, message: string): Diagnostic {
  return { ...at, severity: "warning", code, message };
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.severity} ${d.code}: ${d.message}`;
}

/** Files first, then position, so output reads top to bottom. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col || (a.code < b.code ? -1 : 1)));
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === "error");
}

/** A thrown failure that carries diagnostics; the CLI prints them without a stack. */
export class DiagnosticsError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "DiagnosticsError";
  }
}
