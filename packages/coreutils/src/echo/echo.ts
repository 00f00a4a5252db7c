import { ByteBuilder } from "../io/byte-builder.js";
import type { IoContext } from "../io/io-context.js";
import { toByteString } from "../text/byte-string.js";
import { appendEscaped } from "./echo-escapes.js";

const OPTION_LETTERS = /^-[neE]+$/;

interface EchoFlags {
  newline: boolean;
  escapes: boolean;
}

/** Leading arguments made only of `-n`, `-e`, `-E` letters are options (GNU /bin/echo). */
function readFlags(argv: readonly string[]): { flags: EchoFlags; first: number } {
  const flags = { newline: true, escapes: false };
  let first = 0;
  for (; first < argv.length; first += 1) {
    const argument = argv[first] as string;
    if (!OPTION_LETTERS.test(argument)) break;
    for (const letter of argument.slice(1)) {
      if (letter === "n") flags.newline = false;
      else flags.escapes = letter === "e";
    }
  }
  return { flags, first };
}

/**
 * GNU `/bin/echo` (not bash's builtin): `-n`, `-e`, `-E` as leading option words;
 * `--help` and `--version` as the only argument are not supported (exit 1, refused).
 */
export async function echo(context: IoContext): Promise<number> {
  const { argv } = context;
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "--version")) {
    const text = `echo: option '${argv[0]}' is not supported by this implementation\n`;
    await context.stderr.write(Buffer.from(text, "latin1"));
    return 1;
  }
  const { flags, first } = readFlags(argv);
  const out = new ByteBuilder();
  let newline = flags.newline;
  for (let index = first; index < argv.length; index += 1) {
    if (index > first) out.byte(0x20);
    const text = toByteString(argv[index] as string);
    if (!flags.escapes) {
      out.text(text);
      continue;
    }
    if (appendEscaped(out, text).stop) {
      newline = false;
      break;
    }
  }
  if (newline) out.byte(0x0a);
  await context.stdout.write(out.take());
  return 0;
}
