import { describe, expect, it } from "vitest";
import { entryPointsOf, networkFailure, probeFor, tarballName } from "../src/index.js";

describe("pack-check parts", () => {
  it("names tarballs as pnpm pack does", () => {
    expect(tarballName({ name: "@agent-bridle/core", version: "1.2.3" })).toBe(
      "agent-bridle-core-1.2.3.tgz",
    );
    expect(tarballName({ name: "agent-bridle", version: "0.0.0" })).toBe("agent-bridle-0.0.0.tgz");
  });

  it("lists the exports subpaths a consumer can import, without package.json and patterns", () => {
    expect(
      entryPointsOf({
        name: "@x/core",
        exports: {
          ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
          "./caveats.schema.json": "./schema/caveats.schema.json",
          "./package.json": "./package.json",
          "./features/*": "./dist/features/*.js",
        },
      }),
    ).toEqual([
      { specifier: "@x/core", json: false },
      { specifier: "@x/core/caveats.schema.json", json: true },
    ]);
    expect(entryPointsOf({ name: "y", exports: { import: "./a.js" } })).toEqual([
      { specifier: "y", json: false },
    ]);
    expect(entryPointsOf({ name: "z", main: "./index.js" })).toEqual([
      { specifier: "z", json: false },
    ]);
    expect(entryPointsOf({ name: "none" })).toEqual([]);
  });

  it("recognises npm's unreachable-registry errors", () => {
    expect(networkFailure("npm error code ENOTFOUND\nnpm error network request to x failed")).toBe(
      "npm error code ENOTFOUND",
    );
    expect(networkFailure("npm error code EAI_AGAIN")).toBe("npm error code EAI_AGAIN");
    expect(networkFailure("npm error 404 Not Found - GET x")).toBeUndefined();
  });

  it("probes the MCP server with an initialize request and bridle with --help", () => {
    expect(probeFor("agent-bridle-mcp").input).toContain('"method":"initialize"');
    expect(probeFor("bridle").args).toEqual(["--help"]);
    expect(probeFor("other").args).toEqual(["--help"]);
  });
});
