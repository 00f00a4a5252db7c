import { readdirSync } from "node:fs";
import { defineConfig } from "vitest/config";

// One vitest run over every workspace package and tool, one project each, so the
// summary of the README's test command counts everything. Tests run on source
// through the "@agent-bridle/source" export condition (no build needed for tests;
// the build is checked separately by `tsc -b`).
const sourceCondition = "@agent-bridle/source";

function project(directory: string, name: string) {
  return {
    resolve: { conditions: [sourceCondition, "node", "import", "default"] },
    ssr: { resolve: { conditions: [sourceCondition, "node", "import", "default"] } },
    test: {
      name,
      root: directory,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      environment: "node" as const,
      testTimeout: 20_000,
      setupFiles: [new URL("./tools/test-kit/src/quiet-console.ts", import.meta.url).pathname],
    },
  };
}

const projects = [
  ...readdirSync("packages").map((name) => project(`packages/${name}`, name)),
  ...readdirSync("tools")
    .filter((name) => name !== "scripts")
    .map((name) => project(`tools/${name}`, `tools/${name}`)),
];

export default defineConfig({ test: { projects } });
