import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromDocument, readConfigFile } from "../src/index.js";
import { useTempDirs, writeConfig } from "./helpers.js";

const tempDir = useTempDirs();

describe("~/.agent-bridle/config.toml", () => {
  it("reads [caveats], [fs], [limits] and [engine]", async () => {
    const home = tempDir();
    const file = writeConfig(
      home,
      [
        "[caveats]",
        'fs_read = "all"',
        'fs_write = "all"',
        'exec = "all"',
        'net = { only = ["example.com"] }',
        'max_calls = "unlimited"',
        "valid_for_generation = { only = [0, 1] }",
        "[fs]",
        'baseDir = "/srv/project"',
        "maxFileSize = 2048",
        "followSymlinks = true",
        "[limits]",
        "max_concurrent_calls = 2",
        "max_frame_bytes = 65536",
        "max_timeout_secs = 30",
        "[engine]",
        'shell = "host"',
        'home = "/srv/home"',
      ].join("\n"),
    );
    const config = await readConfigFile(file);
    expect(config?.caveats?.net).toEqual({ only: ["example.com"] });
    expect(config?.caveats?.valid_for_generation).toEqual({ only: [0, 1] });
    expect(config?.fs).toEqual({
      baseDir: "/srv/project",
      maxFileSize: 2048,
      followSymlinks: true,
    });
    expect(config?.limits).toEqual({
      maxConcurrentCalls: 2,
      maxFrameBytes: 65536,
      maxTimeoutSecs: 30,
    });
    expect(config?.engine).toEqual({ shell: "host", home: "/srv/home" });
  });

  it("is absent when the file does not exist", async () => {
    expect(await readConfigFile(join(tempDir(), "none.toml"))).toBeUndefined();
  });

  it("refuses unparsable TOML, naming the file", async () => {
    const home = tempDir();
    const file = writeConfig(home, "[caveats\n");
    await expect(readConfigFile(file)).rejects.toThrow(`${file}: is not valid TOML`);
  });

  it.each(["brush", "safe", "host", "none"])("accepts [engine] shell = %j", (shell) => {
    expect(configFromDocument("/x/config.toml", { engine: { shell } }).engine).toEqual({ shell });
  });

  it("reads the resource limits of a call's tree from [limits]", () => {
    const limits = {
      max_processes: 64,
      tree_memory_bytes: 1073741824,
      file_size_bytes: 1048576,
      open_files: 256,
      private_tmp_bytes: 67108864,
      niceness: 0,
    };
    expect(configFromDocument("/x/config.toml", { limits }).limits).toEqual({
      maxProcesses: 64,
      treeMemoryBytes: 1073741824,
      fileSizeBytes: 1048576,
      openFiles: 256,
      privateTmpBytes: 67108864,
      niceness: 0,
    });
  });

  it("leaves [engine] shell unset when absent (the facade's default engine serves)", () => {
    expect(configFromDocument("/x/config.toml", {}).engine).toEqual({});
  });

  it.each([
    [{ caveats: { fs_read: "all" } }, /\[caveats\]: invalid caveats/],
    [{ fs: { baseDir: "relative" } }, /\[fs\] baseDir must be an absolute path/],
    [{ fs: { unknown: 1 } }, /\[fs\] has an unknown key "unknown"/],
    [{ fs: { maxFileSize: -1 } }, /\[fs\] maxFileSize must be a positive integer/],
    [{ limits: { max_concurrent_calls: 0 } }, /max_concurrent_calls must be a positive integer/],
    [{ limits: { max_calls: 3 } }, /\[limits\] has an unknown key/],
    [{ limits: { tree_memory_bytes: -1 } }, /tree_memory_bytes must be a positive integer/],
    [{ limits: { niceness: 20 } }, /\[limits\] niceness must be an integer from 0 to 19/],
    [{ limits: { niceness: -1 } }, /\[limits\] niceness must be an integer from 0 to 19/],
    [{ engine: { shell: "bash" } }, /\[engine\] shell must be "brush", "safe", "host" or "none"/],
    [{ engine: { home: "~" } }, /\[engine\] home must be an absolute path/],
    [{ extra: 1 }, /unknown table or key "extra"/],
    [{ git: { name: "Ada" } }, /\[git\] email must be a non-empty string on one line/],
    [{ git: { name: "a\nb", email: "e" } }, /\[git\] name must be a non-empty string on one line/],
    [{ git: { user: "x" } }, /\[git\] has an unknown key "user"/],
    [{ fs: "nope" }, /\[fs\] must be a table/],
  ])("refuses %j", (document, message) => {
    expect(() => configFromDocument("/x/config.toml", document as Record<string, unknown>)).toThrow(
      message,
    );
  });
});
