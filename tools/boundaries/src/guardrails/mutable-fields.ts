import ts from "typescript";
import type { Violation } from "../violation.js";
import { EXCEPTIONS_FILE, type GuardrailExceptions } from "./exceptions.js";

/** The interpreter's folder: no class in it may expose a field others can write. */
export const INTERPRETER_FOLDER = "packages/shell-brush/src/interpret/";
/** The class that must be found there, so that the rule cannot pass by finding nothing. */
export const INTERPRETER_CLASS = "Interpreter";

/** A public member of a class that code outside it can assign. */
export interface MutableField {
  /** `Class.field`. */
  readonly name: string;
  readonly line: number;
}

/**
 * Public writable members of every named class in `source`: fields and constructor
 * parameter properties without `readonly` (nor `private`, `protected` or a `#` name),
 * and public `set` accessors.
 */
export function findMutableFields(source: ts.SourceFile): {
  readonly classes: readonly string[];
  readonly fields: readonly MutableField[];
} {
  const classes: string[] = [];
  const fields: MutableField[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassLike(node) && node.name !== undefined) {
      classes.push(node.name.text);
      for (const member of writableMembers(node)) {
        const line = source.getLineAndCharacterOfPosition(member.getStart(source)).line + 1;
        fields.push({ name: `${node.name.text}.${member.name.getText(source)}`, line });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { classes, fields };
}

type NamedMember = ts.Node & { readonly name: ts.PropertyName | ts.BindingName };

function writableMembers(node: ts.ClassLikeDeclaration): NamedMember[] {
  const members: NamedMember[] = [];
  for (const member of node.members) {
    if (ts.isPropertyDeclaration(member) || ts.isSetAccessorDeclaration(member)) {
      if (isPublicWritable(member)) members.push(member);
    } else if (ts.isConstructorDeclaration(member)) {
      for (const parameter of member.parameters) {
        if (ts.isParameterPropertyDeclaration(parameter, member) && isPublicWritable(parameter)) {
          members.push(parameter);
        }
      }
    }
  }
  return members;
}

function isPublicWritable(
  member: ts.PropertyDeclaration | ts.SetAccessorDeclaration | ts.ParameterDeclaration,
): boolean {
  if (ts.isPrivateIdentifier(member.name)) return false;
  const flags = ts.getCombinedModifierFlags(member);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  return ts.isSetAccessorDeclaration(member) || (flags & ts.ModifierFlags.Readonly) === 0;
}

/** One file of the interpreter's folder, with what {@link findMutableFields} found in it. */
export interface InterpreterFile {
  readonly file: string;
  readonly classes: readonly string[];
  readonly fields: readonly MutableField[];
}

export interface FieldReport {
  readonly violations: readonly Violation[];
  /** Public mutable fields found (listed or not). */
  readonly found: number;
}

/**
 * Unlisted public mutable fields fail; so does a listed one that is gone or no longer
 * writable, and (when `requireInterpreter`, i.e. the workspace has shell-brush) a folder
 * without the {@link INTERPRETER_CLASS} class.
 */
export function checkMutableFields(
  files: readonly InterpreterFile[],
  exceptions: GuardrailExceptions,
  requireInterpreter: boolean,
): FieldReport {
  const violations: Violation[] = [];
  const found = new Set<string>();
  for (const { file, fields } of files) {
    for (const field of fields) {
      const key = `${file}:${field.name}`;
      found.add(key);
      if (exceptions.mutableField.has(key)) continue;
      violations.push({
        file,
        line: field.line,
        rule: "mutable-field",
        message:
          `${field.name} is a public field anyone can assign: make it readonly or private ` +
          "and give the class a method that says what the change means (ADR 0026)",
      });
    }
  }
  for (const key of exceptions.mutableField.keys()) {
    if (found.has(key)) continue;
    violations.push({
      file: EXCEPTIONS_FILE,
      line: exceptions.lineOf("mutable-field", key),
      rule: "stale-exception",
      message: `mutable-field exception ${key} is no longer a public mutable field: remove its entry`,
    });
  }
  if (requireInterpreter && !files.some((entry) => entry.classes.includes(INTERPRETER_CLASS))) {
    violations.push({
      file: INTERPRETER_FOLDER,
      line: 1,
      rule: "mutable-field",
      message:
        `no class ${INTERPRETER_CLASS} under ${INTERPRETER_FOLDER}: the no-public-mutable-field ` +
        "rule would check nothing; point INTERPRETER_FOLDER and INTERPRETER_CLASS at it",
    });
  }
  return { violations, found: found.size };
}
