import { describe, expect, it } from "vitest";
import {
  denyAll,
  provenanceBanner,
  registryOptionsFor,
  resolveGrant,
  UNBRIDLE_ACK,
} from "../src/index.js";
import { useTempDirs, writeConfig } from "./helpers.js";

const tempDir = useTempDirs();

const ECHO_GRANT = JSON.stringify({
  fs_read: "all",
  fs_write: "all",
  exec: { only: ["echo"] },
  net: "all",
  max_calls: { at_most: 3 },
  valid_for_generation: "all",
});

const CONFIG = [
  "[caveats]",
  'fs_read = { only = ["/srv/data"] }',
  "fs_write = { only = [] }",
  'exec = { only = ["ls"] }',
  "net = { only = [] }",
  "max_calls = { at_most = 7 }",
  'valid_for_generation = "all"',
].join("\n");

describe("the session grant's source (reference case 100, as spec §13 adapts it)", () => {
  it("parses the exact Caveats shape from AGENT_BRIDLE_CAVEATS", async () => {
    const resolution = await resolveGrant({
      env: { AGENT_BRIDLE_CAVEATS: ECHO_GRANT },
      home: tempDir(),
    });
    expect(resolution.provenance).toEqual({ kind: "env", variable: "AGENT_BRIDLE_CAVEATS" });
    expect(resolution.caveats.exec).toEqual({ only: ["echo"] });
    expect(resolution.caveats.max_calls).toEqual({ at_most: 3 });
    expect(resolution.unbridled).toBe(false);
  });

  it("refuses malformed env JSON or a wrong shape, naming the variable", async () => {
    const home = tempDir();
    await expect(resolveGrant({ env: { AGENT_BRIDLE_CAVEATS: "{nope" }, home })).rejects.toThrow(
      /AGENT_BRIDLE_CAVEATS is not valid JSON/,
    );
    await expect(
      resolveGrant({ env: { AGENT_BRIDLE_CAVEATS: '{"fs_read":"all"}' }, home }),
    ).rejects.toThrow(/AGENT_BRIDLE_CAVEATS: invalid caveats: missing field "fs_write"/);
  });

  it("reads the config file second; the environment beats it", async () => {
    const home = tempDir();
    const file = writeConfig(home, CONFIG);
    const fromFile = await resolveGrant({ env: {}, home });
    expect(fromFile.provenance).toEqual({ kind: "config-file", path: file });
    expect(fromFile.caveats.exec).toEqual({ only: ["ls"] });
    const fromEnv = await resolveGrant({ env: { AGENT_BRIDLE_CAVEATS: ECHO_GRANT }, home });
    expect(fromEnv.provenance.kind).toBe("env");
    expect(fromEnv.caveats.exec).toEqual({ only: ["echo"] });
    // [fs], [limits] and [engine] still come from the file.
    expect(fromEnv.config?.path).toBe(file);
  });

  it("is deny-all (not top) with a DENY-ALL, fail-closed banner when nothing is configured", async () => {
    const resolution = await resolveGrant({ env: {}, home: tempDir() });
    expect(resolution.caveats).toEqual(denyAll());
    expect(resolution.caveats.max_calls).toEqual({ at_most: 0 });
    expect(resolution.caveats.fs_read).toEqual({ only: [] });
    expect(resolution.caveats.valid_for_generation).toEqual({ only: [] });
    const banner = provenanceBanner(resolution, "agent-bridle-mcp");
    expect(banner).toContain("DENY-ALL");
    expect(banner).toContain("failing closed");
  });

  it("is deny-all when the config file has no [caveats] table", async () => {
    const home = tempDir();
    writeConfig(home, '[engine]\nshell = "host"\n');
    const resolution = await resolveGrant({ env: {}, home });
    expect(resolution.provenance.kind).toBe("deny-all-default");
    expect(resolution.caveats).toEqual(denyAll());
    expect(resolution.engine.shell).toBe("host");
  });

  it("is deny-all when there is no home to look in", async () => {
    const resolution = await resolveGrant({ env: {}, home: undefined });
    expect(resolution.caveats).toEqual(denyAll());
  });

  it("unbridles only with both keys, keeping the grant", async () => {
    const home = tempDir();
    const both = await resolveGrant({
      env: {
        AGENT_BRIDLE_CAVEATS: ECHO_GRANT,
        BRIDLE_MODE: "  UnBridle ",
        AGENT_BRIDLE_UNBRIDLE: UNBRIDLE_ACK,
      },
      home,
    });
    expect(both.unbridled).toBe(true);
    expect(both.caveats.exec).toEqual({ only: ["echo"] });
    expect(provenanceBanner(both, "agent-bridle-mcp")).toContain("UNBRIDLED");

    const ackAlone = await resolveGrant({
      env: { AGENT_BRIDLE_CAVEATS: ECHO_GRANT, AGENT_BRIDLE_UNBRIDLE: UNBRIDLE_ACK },
      home,
    });
    expect(ackAlone.unbridled).toBe(false);
    expect(ackAlone.provenance.kind).toBe("env");
    expect(ackAlone.caveats.exec).toEqual({ only: ["echo"] });
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["1", "1"],
    ["true", "true"],
    ["a stale token", "i-understand"],
    ["a near miss", `${UNBRIDLE_ACK} `],
  ])(
    "the mode with a %s acknowledgement resolves to deny-all and a REFUSING banner",
    async (_label, ack) => {
      const env: Record<string, string | undefined> = {
        AGENT_BRIDLE_CAVEATS: ECHO_GRANT,
        BRIDLE_MODE: "unbridle",
      };
      if (ack !== undefined) env.AGENT_BRIDLE_UNBRIDLE = ack;
      const resolution = await resolveGrant({ env, home: tempDir() });
      expect(resolution.unbridled).toBe(false);
      expect(resolution.provenance.kind).toBe("unbridle-refused");
      expect(resolution.caveats).toEqual(denyAll());
      expect(provenanceBanner(resolution, "agent-bridle-mcp")).toContain("REFUSING TO UNBRIDLE");
    },
  );

  it("does not read AGENT_BRIDLE_NO_STEPUP", async () => {
    const resolution = await resolveGrant({
      env: {
        AGENT_BRIDLE_CAVEATS: ECHO_GRANT,
        AGENT_BRIDLE_NO_STEPUP: "i-accept-no-human-in-the-loop",
      },
      home: tempDir(),
    });
    expect(resolution.provenance.kind).toBe("env");
    expect(resolution.unbridled).toBe(false);
  });

  it("resolves the four postures distinctly", async () => {
    const home = tempDir();
    const postures = await Promise.all([
      resolveGrant({ env: { AGENT_BRIDLE_CAVEATS: ECHO_GRANT }, home }),
      resolveGrant({ env: {}, home }),
      resolveGrant({
        env: {
          AGENT_BRIDLE_CAVEATS: ECHO_GRANT,
          BRIDLE_MODE: "unbridle",
          AGENT_BRIDLE_UNBRIDLE: UNBRIDLE_ACK,
        },
        home,
      }),
      resolveGrant({ env: { AGENT_BRIDLE_CAVEATS: ECHO_GRANT, BRIDLE_MODE: "unbridle" }, home }),
    ]);
    const keys = postures.map((p) => `${p.provenance.kind}/${p.unbridled}`);
    expect(new Set(keys).size).toBe(4);
  });

  it("takes the engine from AGENT_BRIDLE_ENGINE over [engine], and refuses unknown engines", async () => {
    const home = tempDir();
    writeConfig(home, '[engine]\nshell = "none"\n');
    const resolution = await resolveGrant({ env: { AGENT_BRIDLE_ENGINE: "host" }, home });
    expect(resolution.engine.shell).toBe("host");
    const brush = await resolveGrant({ env: { AGENT_BRIDLE_ENGINE: "brush" }, home });
    expect(brush.engine.shell).toBe("brush");
    expect(provenanceBanner(brush, "agent-bridle-mcp")).toContain(
      "shell engine: bash engine (brush, chosen)",
    );
    await expect(resolveGrant({ env: { AGENT_BRIDLE_ENGINE: "bash" }, home })).rejects.toThrow(
      /AGENT_BRIDLE_ENGINE must be "brush", "safe", "host" or "none"/,
    );
  });

  it("hands the [limits] resource limits to the shell engine, and nothing when none is given", async () => {
    const home = tempDir();
    writeConfig(home, "[limits]\nmax_processes = 64\nfile_size_bytes = 1048576\n");
    const resolution = await resolveGrant({ env: {}, home });
    expect(registryOptionsFor(resolution).shellOptions?.resourceLimits).toEqual({
      maxProcesses: 64,
      fileSizeBytes: 1048576,
    });
    const none = await resolveGrant({ env: {}, home: tempDir() });
    expect(registryOptionsFor(none).shellOptions?.resourceLimits).toBeUndefined();
  });

  it("hands the [git] identity to the shell engine's private home, and nothing when none is given", async () => {
    const home = tempDir();
    writeConfig(home, '[git]\nname = "Ada Lovelace"\nemail = "ada@example.org"\n');
    const resolution = await resolveGrant({ env: {}, home });
    expect(registryOptionsFor(resolution).shellOptions?.gitIdentity).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.org",
    });
    const none = await resolveGrant({ env: {}, home: tempDir() });
    expect(registryOptionsFor(none).shellOptions?.gitIdentity).toBeUndefined();
  });

  it("serves the facade's default engine when nothing names one: brush on Linux and macOS", async () => {
    const resolution = await resolveGrant({ env: {}, home: tempDir() });
    expect(resolution.engine.shell).toBeUndefined();
    expect(registryOptionsFor(resolution).shell).toBe("default");
    const banner = provenanceBanner(resolution, "agent-bridle-mcp");
    if (process.platform === "linux" || process.platform === "darwin")
      expect(banner).toContain("shell engine: bash engine (brush, the default here)");
    else expect(banner).toContain("shell engine: safe subset (the default on");
  });
});
