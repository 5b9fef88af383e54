/**
 * A parsed YAML definition that remembers where every node came from, so any
 * later phase can point a diagnostic at the exact key or value.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonPath, SourceLocation } from "../ir.js";

export interface YamlSource {
  /** Path relative to the definitions folder, posix separators. */
  readonly source: string;
  /** Path as printed in diagnostics. */
  readonly display: string;
  readonly data: unknown;
  /** Location of the value at `path`, or of its key with `{ key: true }`; the deepest existing node when the path runs out. */
  locate(path: JsonPath, options?: { key?: boolean }): SourceLocation;
}

function resolveAlias(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

interface Found {
  readonly node: Node | null;
  readonly keyNode: Node | null;
}

/** Walks the YAML tree along a JSON path, stopping at the deepest node that exists. */
function findNode(doc: Document, path: JsonPath): Found {
  let node = resolveAlias(doc, doc.contents) as Node | null;
  let keyNode: Node | null = null;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      keyNode = pair.key as Node;
      node = (resolveAlias(doc, pair.value) as Node | null) ?? keyNode;
    } else if (isSeq(node) && typeof segment === "number" && segment < node.items.length) {
      keyNode = null;
      node = resolveAlias(doc, node.items[segment]) as Node | null;
    } else {
      break;
    }
  }
  return { node, keyNode };
}

export function parseYamlSource(text: string, source: string, display: string): { file: YamlSource; diagnostics: Diagnostic[] } {
  const position = lineIndex(text);
  const at = (offset: number): SourceLocation => ({ file: display, ...position(offset) });
  let doc: Document;
  try {
    doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    // Block-style nesting can run the parser out of stack before it reports anything.
    const file: YamlSource = { source, display, data: undefined, locate: () => at(0) };
    return { file, diagnostics: [error(at(deeplyIndented(text)), Codes.tooDeep, TOO_DEEP)] };
  }
  const diagnostics = syntaxErrors(doc, at);
  if (diagnostics.length === 0) diagnostics.push(...tooDeep(doc, at));
  if (diagnostics.length === 0) diagnostics.push(...unsafeKeys(doc, at));
  let data: unknown;
  if (diagnostics.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      // An alias to an anchor that does not exist (or too many aliases) only surfaces when converting.
      diagnostics.push(error(at(0), Codes.yamlSyntax, `YAML syntax error: ${firstLine(e instanceof Error ? e.message : String(e))}`));
    }
  }
  const file: YamlSource = {
    source,
    display,
    data,
    locate(path, options) {
      const { node, keyNode } = findNode(doc, path);
      const target = options?.key && keyNode ? keyNode : node;
      return at(target?.range?.[0] ?? 0);
    },
  };
  return { file, diagnostics };
}

/**
 * How deeply a definition file may nest maps and lists. A schema level takes
 * two (`properties`, then the property), so this allows schemas 60 levels
 * deep, far beyond any real contract, while every later phase (which walks
 * schemas recursively, as Ajv and the type emitter do) stays well inside the
 * stack.
 */
export const MAX_DEFINITION_DEPTH = 128;

const TOO_DEEP = `nested more than ${MAX_DEFINITION_DEPTH} levels deep; a definition file may nest maps and lists at most ${MAX_DEFINITION_DEPTH} levels (a schema level takes two), so flatten it or move parts into named types`;

/** Where the first line indented past the depth limit starts (two spaces a level), or the file's start. */
function deeplyIndented(text: string): number {
  const match = new RegExp(`^ {${2 * MAX_DEFINITION_DEPTH},}\\S`, "m").exec(text);
  return match === null ? 0 : match.index;
}

/** The first node deeper than MAX_DEFINITION_DEPTH, found without recursion, reported where it starts. */
function tooDeep(doc: Document, at: (offset: number) => SourceLocation): Diagnostic[] {
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth >= MAX_DEFINITION_DEPTH) return [error(at(node.range?.[0] ?? 0), Codes.tooDeep, TOO_DEEP)];
    for (const item of node.items) stack.push({ node: isPair(item) ? item.value : item, depth: depth + 1 });
  }
  return [];
}

/**
 * Keys JSON cannot hold as written. A `__proto__` key would set the prototype
 * of the loaded object instead of becoming a property, silently dropping it;
 * a map or list used as a key would be stringified (with a process warning).
 * Both are refused where they stand.
 */
function unsafeKeys(doc: Document, at: (offset: number) => SourceLocation): Diagnostic[] {
  const found: Diagnostic[] = [];
  // In document order, as the yaml package's `visit` goes (a pair, then its key, then its value), without its
  // visitor machinery: every loaded file is walked, and `visit` was most of this check's time.
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isPair(node)) {
      const key = node.key as Node | null;
      if (isScalar(key) && key.value === "__proto__") {
        found.push(
          error(at(key.range?.[0] ?? 0), Codes.invalidValue, "`__proto__` cannot be used as a key: JavaScript would treat it as the object's prototype"),
        );
      } else if (key !== null && !isScalar(key) && !isAlias(key)) {
        found.push(error(at(key.range?.[0] ?? 0), Codes.invalidValue, "a key must be a plain string, not a map or a list"));
      }
      stack.push(node.value, node.key);
    } else if (isMap(node) || isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return found;
}

/**
 * Only the first syntax error is reported: after it the parser resynchronises
 * token by token, so the errors that follow (one per remaining token) describe
 * its confusion, not the user's mistakes.
 */
function syntaxErrors(doc: Document, at: (offset: number) => SourceLocation): Diagnostic[] {
  const [first, ...rest] = doc.errors;
  if (!first) return [];
  // The parser recurses per level of nesting, so a deep enough file runs it out of stack.
  if (first.message.includes("Maximum call stack size exceeded")) return [error(at(first.pos[0]), Codes.tooDeep, TOO_DEEP)];
  const more = rest.length > 0 ? ` (and ${rest.length} more after it; fix this one first)` : "";
  return [error(at(first.pos[0]), Codes.yamlSyntax, `YAML syntax error: ${firstLine(first.message)}${more}`)];
}

/**
 * Offset → 1-based line and column, counted from the text itself. The yaml
 * package's LineCounter misses the line breaks inside a scalar token it failed
 * to parse, which placed later errors on the wrong line.
 */
function lineIndex(text: string): (offset: number) => { line: number; col: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  };
}

function firstLine(message: string): string {
  return message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}
