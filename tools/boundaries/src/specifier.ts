/** A specifier naming a workspace package, split into the package name and its subpath. */
export interface WorkspaceSpecifier {
  readonly packageName: string;
  /** `"."` for the package root, otherwise `"./rest"` as in an `exports` map key. */
  readonly subpath: string;
}

const SCOPE = "@agent-bridle/";
const FACADE = "agent-bridle";
const DEV_TOOL_SCOPE = "@agent-bridle-tools/";

function split(packageName: string, rest: string): WorkspaceSpecifier {
  return { packageName, subpath: rest === "" ? "." : `.${rest}` };
}

/** `@agent-bridle/<x>[/…]` or `agent-bridle[/…]`; anything else is not a workspace package. */
export function parseWorkspaceSpecifier(specifier: string): WorkspaceSpecifier | undefined {
  if (specifier.startsWith(SCOPE)) {
    const slash = specifier.indexOf("/", SCOPE.length);
    if (slash === SCOPE.length) return undefined;
    if (slash < 0) return split(specifier, "");
    return split(specifier.slice(0, slash), specifier.slice(slash));
  }
  if (specifier === FACADE || specifier.startsWith(`${FACADE}/`)) {
    return split(FACADE, specifier.slice(FACADE.length));
  }
  return undefined;
}

/** A private dev-only tool package (`@agent-bridle-tools/<x>`). */
export function isDevToolSpecifier(specifier: string): boolean {
  return specifier.startsWith(DEV_TOOL_SCOPE);
}

export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier === "." ||
    specifier === ".." ||
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier.startsWith("/")
  );
}
