#!/usr/bin/env node
import { runMcpServer } from "../session.js";

try {
  await runMcpServer({ env: process.env, stderr: process.stderr });
  process.exit(0);
} catch (error) {
  process.stderr.write(`agent-bridle-mcp: ${(error as Error).message}\n`);
  process.exit(1);
}
