/** `echo` and `printf` (bash's, with `-v`, `%q`, `%b`). */

import {
  BACKSLASH_ESCAPES,
  byteLength,
  canonicalShellText,
  encodeShellText,
  shellByte,
  sliceBytes,
} from "@agent-bridle/bash";
import { ansiQuote, needsAnsiQuote } from "../state/variable-text.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

export function echoEscapes(text: string): { text: string; stop: boolean } {
  let out = "";
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char !== "\\" || index + 1 >= text.length) {
      out += char;
      continue;
    }
    const next = text[index + 1] as string;
    index += 1;
    if (next === "c") return { text: out, stop: true };
    const simple = BACKSLASH_ESCAPES[next];
    if (simple !== undefined) out += simple;
    else if (next === "0") {
      const match = /^[0-7]{0,3}/.exec(text.slice(index + 1))?.[0] ?? "";
      out += shellByte(Number.parseInt(match || "0", 8));
      index += match.length;
    } else if (next === "x") {
      const match = /^[0-9a-fA-F]{1,2}/.exec(text.slice(index + 1))?.[0];
      if (match === undefined) out += "\\x";
      else {
        out += shellByte(Number.parseInt(match, 16));
        index += match.length;
      }
    } else out += `\\${next}`;
  }
  return { text: out, stop: false };
}

export const echo: Builtin = (context, args) => {
  let newline = true;
  let escapes = false;
  let index = 0;
  for (; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (!/^-[neE]+$/.test(arg)) break;
    for (const flag of arg.slice(1)) {
      if (flag === "n") newline = false;
      else if (flag === "e") escapes = true;
      else escapes = false;
    }
  }
  let text = args.slice(index).join(" ");
  if (escapes) {
    const result = echoEscapes(text);
    text = result.text;
    if (result.stop) newline = false;
  }
  context.stdout.write(newline ? `${text}\n` : text);
  return 0;
};

function formatNumber(
  spec: string,
  conversion: string,
  arg: string,
  context: BuiltinContext,
): string {
  let value: bigint;
  let text = arg.trim();
  if (/^['"]/.test(text)) value = BigInt(encodeShellText(text.slice(1))[0] ?? 0);
  else if (text === "") value = 0n;
  else {
    try {
      let negative = false;
      if (text.startsWith("-")) {
        negative = true;
        text = text.slice(1);
      } else if (text.startsWith("+")) text = text.slice(1);
      const parsed = /^0[xX][0-9a-fA-F]+$/.test(text)
        ? BigInt(text)
        : /^0[0-7]+$/.test(text)
          ? BigInt(`0o${text.slice(1)}`)
          : BigInt(text);
      value = negative ? -parsed : parsed;
    } catch {
      context.error(`printf: ${arg}: invalid number`);
      value = 0n;
    }
  }
  const match = /^%([-+ #0]*)(\d*)(?:\.(\d+))?$/.exec(spec);
  const flags = match?.[1] ?? "";
  const width = Number(match?.[2] || 0);
  const precision = match?.[3];
  let body: string;
  if (conversion === "d" || conversion === "i") body = (value < 0n ? -value : value).toString();
  else if (conversion === "o") body = BigInt.asUintN(64, value).toString(8);
  else if (conversion === "u") body = BigInt.asUintN(64, value).toString();
  else if (conversion === "x") body = BigInt.asUintN(64, value).toString(16);
  else body = BigInt.asUintN(64, value).toString(16).toUpperCase();
  if (precision !== undefined) body = body.padStart(Number(precision), "0");
  if (precision !== undefined && Number(precision) === 0 && value === 0n) body = "";
  let sign = "";
  if (conversion === "d" || conversion === "i") {
    if (value < 0n) sign = "-";
    else if (flags.includes("+")) sign = "+";
    else if (flags.includes(" ")) sign = " ";
  }
  if (flags.includes("#") && value !== 0n) {
    if (conversion === "x") sign = "0x";
    else if (conversion === "X") sign = "0X";
    else if (conversion === "o") body = `0${body}`;
  }
  if (flags.includes("-")) return (sign + body).padEnd(width);
  if (flags.includes("0") && precision === undefined)
    return sign + body.padStart(width - sign.length, "0");
  return (sign + body).padStart(width);
}

function padNumber(text: string, flags: string, width: number): string {
  let sign = "";
  let body = text;
  if (body.startsWith("-")) {
    sign = "-";
    body = body.slice(1);
  } else if (flags.includes("+")) sign = "+";
  else if (flags.includes(" ")) sign = " ";
  if (flags.includes("-")) return (sign + body).padEnd(width);
  if (flags.includes("0")) return sign + body.padStart(width - sign.length, "0");
  return (sign + body).padStart(width);
}

function formatString(spec: string, text: string): string {
  const match = /^%([-+ #0]*)(\d*)(?:\.(\d*))?$/.exec(spec);
  let value = text;
  if (match?.[3] !== undefined) value = sliceBytes(value, 0, Number(match[3] || 0));
  // Width and precision count bytes, as bash's do under LC_ALL=C.
  const pad = " ".repeat(Math.max(0, Number(match?.[2] || 0) - byteLength(value)));
  return (match?.[1] ?? "").includes("-") ? value + pad : pad + value;
}

function shellQuote(text: string): string {
  if (text === "") return "''";
  if (/^[A-Za-z0-9_./=:,+@%-]+$/.test(text)) return text;
  if (needsAnsiQuote(text)) return ansiQuote(text);
  return text.replace(/[^A-Za-z0-9_./=:,+@%-]/g, "\\$&");
}

export const printf: Builtin = (context, rawArgs) => {
  let args = rawArgs;
  let variable: string | null = null;
  if (args[0] === "-v") {
    variable = args[1] ?? null;
    args = args.slice(2);
  } else if (args[0]?.startsWith("-v")) {
    variable = args[0].slice(2);
    args = args.slice(1);
  }
  if (args[0] === "--") args = args.slice(1);
  else if (args[0] !== undefined && /^-./.test(args[0])) {
    context.error(`printf: ${args[0].slice(0, 2)}: invalid option`);
    context.stderr.write("printf: usage: printf [-v var] format [arguments]\n");
    return 2;
  }
  const format = args[0];
  if (format === undefined) {
    context.error("printf: usage: printf [-v var] format [arguments]");
    return 2;
  }
  let values = args.slice(1);
  let out = "";
  let status = 0;
  for (;;) {
    let consumed = 0;
    let stop = false;
    const next = (): string | undefined => {
      const value = values[consumed];
      consumed += 1;
      return value;
    };
    for (let index = 0; index < format.length; index += 1) {
      const char = format[index] as string;
      if (char === "\\") {
        const match = /^\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)/s.exec(format.slice(index));
        const sequence = match?.[0] ?? "\\";
        if (sequence === "\\c") {
          stop = true;
          break;
        }
        const decoded = /^\\[0-7]/.test(sequence)
          ? shellByte(Number.parseInt(sequence.slice(1), 8))
          : echoEscapes(sequence).text;
        out += decoded;
        index += sequence.length - 1;
        continue;
      }
      if (char !== "%") {
        out += char;
        continue;
      }
      const match = /^%([-+ #0]*)(\d*|\*)(?:\.(\d*|\*))?([diouxXsbcqfeEgG%])/.exec(
        format.slice(index),
      );
      if (match === null) {
        out += char;
        continue;
      }
      index += match[0].length - 1;
      const conversion = match[4] as string;
      if (conversion === "%") {
        out += "%";
        continue;
      }
      let width = match[2] ?? "";
      if (width === "*") width = String(Number(next() ?? 0));
      let precision = match[3];
      if (precision === "*") precision = String(Number(next() ?? 0));
      const spec = `%${match[1] ?? ""}${width}${precision === undefined ? "" : `.${precision || "0"}`}`;
      const arg = next();
      if (conversion === "s") out += formatString(spec, arg ?? "");
      else if (conversion === "b") {
        const result = echoEscapes(arg ?? "");
        out += formatString(spec, result.text);
        if (result.stop) {
          stop = true;
          break;
        }
      } else if (conversion === "c") out += formatString(spec, sliceBytes(arg ?? "", 0, 1));
      else if (conversion === "q") out += formatString(spec, shellQuote(arg ?? ""));
      else if ("fFeEgG".includes(conversion)) {
        const number = Number(arg ?? 0);
        const digits = precision === undefined ? 6 : Number(precision || 0);
        let text =
          conversion === "f" || conversion === "F"
            ? number.toFixed(digits)
            : conversion === "e" || conversion === "E"
              ? number.toExponential(digits).replace(/e([+-])(\d)$/, "e$10$2")
              : String(Number(number.toPrecision(digits || 1)));
        if (conversion === "E" || conversion === "G") text = text.toUpperCase();
        out += padNumber(text, match[1] ?? "", Number(width || 0));
      } else {
        if (
          arg !== undefined &&
          arg.trim() !== "" &&
          !/^\s*[-+]?(0[xX][0-9a-fA-F]+|[0-9]+|['"].*)\s*$/s.test(arg)
        ) {
          context.error(`printf: ${arg}: invalid number`);
          status = 1;
        }
        out += formatNumber(spec, conversion, arg ?? "", context);
      }
    }
    values = values.slice(consumed);
    if (stop || consumed === 0 || values.length === 0) break;
  }
  if (variable !== null) context.state.set(variable, canonicalShellText(out));
  else context.stdout.write(out);
  return status;
};
