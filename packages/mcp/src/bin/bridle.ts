#!/usr/bin/env node
import { homedir } from "node:os";
import { text } from "node:stream/consumers";
import { bridle, COMMAND_USAGE } from "../cli.js";
import { runMcpServer } from "../session.js";

const argv = process.argv.slice(2);
try {
  if (argv[0] === "mcp" && (argv.includes("--help") || argv.includes("-h"))) {
    process.stdout.write(COMMAND_USAGE.mcp ?? "");
  } else if (argv[0] === "mcp") {
    await runMcpServer({ env: process.env, stderr: process.stderr, program: "bridle mcp" });
    process.exit(0);
  } else {
    const code = await bridle(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      cwd: process.cwd(),
      readStdin: () => text(process.stdin),
      home: homedir() || undefined,
    });
    process.exitCode = code;
  }
} catch (error) {
  process.stderr.write(`bridle: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
