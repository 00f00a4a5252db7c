/** Generic traversal of the AST: every object with a string `type` and numeric offsets is a node. */

export interface AstNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

function isNode(value: unknown): value is AstNode {
  if (value === null || typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.type === "string" &&
    typeof record.start === "number" &&
    typeof record.end === "number"
  );
}

function visitChildren(
  value: unknown,
  parent: AstNode | null,
  visit: (node: AstNode, parent: AstNode | null) => void,
): void {
  if (Array.isArray(value)) {
    for (const item of value) visitChildren(item, parent, visit);
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (isNode(value)) {
    visit(value, parent);
    for (const [key, child] of Object.entries(value)) {
      if (key !== "flags") visitChildren(child, value, visit);
    }
    return;
  }
  // Plain records such as a parameter expansion's `operation` hold nodes but are not nodes.
  for (const child of Object.values(value)) visitChildren(child, parent, visit);
}

/** Calls `visit` for `root` and every node below it, parents before children, in field order. */
export function forEachNode(
  root: AstNode,
  visit: (node: AstNode, parent: AstNode | null) => void,
): void {
  visitChildren(root, null, visit);
}
