/**
 * A module's import bindings and the identifiers its code refers to, read
 * on TypeScript's own syntax tree: a test checks with it that a generated
 * module imports what its code uses, and nothing else.
 */
import ts from "typescript";

/** The names a module imports, and the identifiers its other statements refer to (keys and member names excluded). */
export function importsAndUses(text: string): { imported: string[]; used: Set<string> } {
  const source = ts.createSourceFile("m.ts", text, ts.ScriptTarget.ES2022, true);
  const imported: string[] = [];
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isKey = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!isKey) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) imported.push(...bindings.elements.map((e) => e.name.text));
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) imported.push(bindings.name.text);
    } else visit(statement);
  }
  return { imported, used };
}
