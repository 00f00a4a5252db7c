/** `read`: a line (or `-n`/`-N`/`-d` worth) split by `IFS` into names or an array. */
import { decodeShellBytes, encodeShellText } from "@agent-bridle/bash";
import { InputSource } from "../io/io.js";
import type { Builtin } from "./builtin-context.js";

export const read: Builtin = async (context, args) => {
  let raw = false;
  let delimiter = "\n";
  let count: number | null = null;
  let exact = false;
  let arrayName: string | null = null;
  let fd = 0;
  const names: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "-r") raw = true;
    else if (arg === "-d") delimiter = args[++index] ?? "";
    else if (arg === "-n" || arg === "-N") {
      exact = arg === "-N";
      count = Number(args[++index] ?? 0);
    } else if (arg === "-a") arrayName = args[++index] ?? null;
    else if (arg === "-p") {
      const prompt = args[++index];
      void prompt;
    } else if (arg === "-u") fd = Number(args[++index] ?? 0);
    else if (arg === "-s" || arg === "-e") continue;
    else if (arg === "-t") index += 1;
    else names.push(arg);
  }
  const channel = context.fds.get(fd);
  if (channel === undefined || !(channel instanceof InputSource)) {
    if (fd === 0) context.error("read: read error: 0: Bad file descriptor");
    else context.error(`read: ${fd}: invalid file descriptor: Bad file descriptor`);
    return 1;
  }
  const input = channel;
  const delimiterCode = delimiter === "" ? 0 : (encodeShellText(delimiter)[0] as number);
  const bytes: number[] = [];
  let found = false;
  let sawAny = false;
  for (;;) {
    if (count !== null && bytes.length >= count) {
      found = true;
      break;
    }
    const byte = input.readByte() ?? (await input.waitByte());
    if (byte === null) break;
    sawAny = true;
    if (byte === delimiterCode && !exact) {
      found = true;
      break;
    }
    if (byte === 92 && !raw) {
      const next = input.readByte() ?? (await input.waitByte());
      if (next === null) break;
      if (next === 10) continue;
      bytes.push(next);
      continue;
    }
    bytes.push(byte);
  }
  const line = decodeShellBytes(Uint8Array.from(bytes));
  if (!sawAny) {
    if (arrayName !== null) context.state.setArray(arrayName, new Map(), false);
    else for (const name of names.length === 0 ? ["REPLY"] : names) context.state.set(name, "");
    return 1;
  }
  const ifs = context.state.get("IFS") ?? " \t\n";
  const ifsWhite = [...ifs].filter((char) => " \t\n".includes(char)).join("");
  const trim = (text: string): string => {
    let start = 0;
    let end = text.length;
    while (start < end && ifsWhite.includes(text[start] as string)) start += 1;
    while (end > start && ifsWhite.includes(text[end - 1] as string)) end -= 1;
    return text.slice(start, end);
  };
  if (arrayName !== null) {
    const words = splitIfs(line, ifs);
    context.state.setArray(
      arrayName,
      new Map(words.map((word, index) => [String(index), word])),
      false,
    );
    return found ? 0 : 1;
  }
  if (names.length === 0) {
    context.state.set("REPLY", line);
    return found ? 0 : 1;
  }
  let rest = trim(line);
  for (const [index, name] of names.entries()) {
    if (index === names.length - 1) {
      context.state.set(name, rest);
      break;
    }
    let end = 0;
    while (end < rest.length && !ifs.includes(rest[end] as string)) end += 1;
    context.state.set(name, rest.slice(0, end));
    rest = rest.slice(end);
    let skip = 0;
    while (skip < rest.length && ifsWhite.includes(rest[skip] as string)) skip += 1;
    if (
      skip < rest.length &&
      ifs.includes(rest[skip] as string) &&
      !ifsWhite.includes(rest[skip] as string)
    )
      skip += 1;
    while (skip < rest.length && ifsWhite.includes(rest[skip] as string)) skip += 1;
    rest = rest.slice(skip);
  }
  return found ? 0 : 1;
};

function splitIfs(text: string, ifs: string): string[] {
  const words: string[] = [];
  let current = "";
  let has = false;
  for (const char of text) {
    if (ifs.includes(char)) {
      if (has || !" \t\n".includes(char)) words.push(current);
      current = "";
      has = false;
    } else {
      current += char;
      has = true;
    }
  }
  if (has) words.push(current);
  return words;
}
