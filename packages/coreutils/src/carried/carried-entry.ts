// The carried entry: `node <this file> --invoke-bundled <name> <args…>` (ADR 0007).
// Nothing is opened, read or written for the utility before `authenticate` succeeds.
import { authenticate } from "./authenticate.js";

const ENTRY_FLAG = "--invoke-bundled";

function say(text: string): Promise<void> {
  return new Promise((resolve) => process.stderr.write(`agent-bridle: ${text}\n`, () => resolve()));
}

async function main(args: readonly string[]): Promise<number> {
  if (args[0] !== ENTRY_FLAG) {
    await say("invalid private carried entrypoint");
    return 2;
  }
  const name = args[1];
  if (name === undefined) {
    await say(`${ENTRY_FLAG} requires a command name`);
    return 2;
  }
  const argv = args.slice(2);
  const refused = await authenticate({ name, argv });
  if (refused !== undefined) {
    await say(`private parent authentication failed: ${refused}`);
    return 126;
  }
  // Loaded only once authenticated: nothing of the utilities runs before.
  const { runAuthenticated } = await import("./run-authenticated.js");
  return runAuthenticated(name, argv, say);
}

process.exitCode = await main(process.argv.slice(2));
