import ts from "typescript";

/** One named function of a file and how many lines it spans. */
export interface MeasuredFunction {
  /**
   * The name qualified by what holds it (`Class.method`, `outer.inner`, `table.key`); a
   * second function of the same qualified name in one file gets `@2`, `@3`, ….
   */
  readonly name: string;
  /** 1-based line of its first token (after any leading comment). */
  readonly line: number;
  /** Lines from its first token to its last, both included. */
  readonly lines: number;
}

/** Whole lines of a file's text (a final newline does not start another line). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * Every function with a body and a name in `source`: declarations, methods, constructors,
 * accessors, and function or arrow expressions assigned to a variable, property or class
 * field. An anonymous callback counts as part of the function around it.
 */
export function measureFunctions(source: ts.SourceFile): MeasuredFunction[] {
  const found: MeasuredFunction[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, parent: ts.Node, scope: readonly string[]): void => {
    const name = functionName(node, parent);
    let inner = scope;
    if (name !== undefined) {
      inner = [...scope, name];
      const qualified = inner.join(".");
      const count = (seen.get(qualified) ?? 0) + 1;
      seen.set(qualified, count);
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const unique = count === 1 ? qualified : `${qualified}@${count}`;
      found.push({ name: unique, line: start + 1, lines: end - start + 1 });
    } else if (ts.isClassLike(node) && node.name !== undefined) {
      inner = [...scope, node.name.text];
    }
    ts.forEachChild(node, (child) => visit(child, node, inner));
  };
  ts.forEachChild(source, (child) => visit(child, source, []));
  return found;
}

/** The name a function node is known by, or undefined for anything else. */
function functionName(node: ts.Node, parent: ts.Node): string | undefined {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) {
    if (node.body === undefined) return undefined;
    return node.name === undefined ? "default" : propertyName(node.name);
  }
  if (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const kind = ts.isGetAccessorDeclaration(node) ? "get" : "set";
    return node.body === undefined ? undefined : `${kind} ${propertyName(node.name)}`;
  }
  if (ts.isConstructorDeclaration(node)) return node.body === undefined ? undefined : "constructor";
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return undefined;
  const named =
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent);
  return named && parent.initializer === node ? propertyName(parent.name) : undefined;
}

function propertyName(name: ts.Node): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}
