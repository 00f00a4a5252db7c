/** `set`: options by letter and by `-o` name, positional parameters, the variable listing. */

import { isOptionName, OPTION_LETTERS, OPTION_NAMES } from "../state/shell-options.js";
import { setLine } from "../state/variable-text.js";
import type { Builtin } from "./builtin-context.js";

export const setBuiltin: Builtin = (context, args) => {
  const options = context.state.options;
  if (args.length === 0) {
    for (const name of context.state.names()) {
      const variable = context.state.lookupRaw(name);
      const line = variable === undefined ? null : setLine(name, variable);
      if (line !== null) context.stdout.write(`${line}\n`);
    }
    return 0;
  }
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--" || arg === "-") {
      context.state.positional = args.slice(index + 1);
      return 0;
    }
    if (arg === "-o" || arg === "+o") {
      const name = args[index + 1];
      index += 1;
      if (name === undefined) {
        for (const key of OPTION_NAMES) {
          context.stdout.write(
            arg === "-o"
              ? `${key.padEnd(15)}\t${options[key] ? "on" : "off"}\n`
              : `set ${options[key] ? "-o" : "+o"} ${key}\n`,
          );
        }
        continue;
      }
      if (!isOptionName(name)) {
        context.error(`set: ${name}: invalid option name`);
        return 2;
      }
      options[name] = arg === "-o";
      if (name === "vi" && arg === "-o") options.emacs = false;
      if (name === "emacs" && arg === "-o") options.vi = false;
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(arg)) {
      for (const letter of arg.slice(1)) {
        const name = OPTION_LETTERS[letter];
        if (name === undefined) {
          context.error(`set: ${arg[0]}${letter}: invalid option`);
          return 2;
        }
        options[name] = arg.startsWith("-");
      }
      continue;
    }
    context.state.positional = args.slice(index);
    return 0;
  }
  return 0;
};
