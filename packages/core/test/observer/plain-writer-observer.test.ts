import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { createOutputSession } from "../../src/observer/output-session.js";
import type {
  ShellOutputObserver,
  ShellOutputObserverObject,
} from "../../src/observer/shell-output-observer.js";
import type { DispatchOptions } from "../../src/registry/registry.js";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function outputFile() {
  const directory = mkdtempSync(join(tmpdir(), "bridle-writer-"));
  made.push(directory);
  const path = join(directory, "out");
  return { path, stream: createWriteStream(path) };
}

async function closed(stream: ReturnType<typeof createWriteStream>): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

// Issue 17 point 5: a writer such as `process.stdout.write` returns a boolean; the observer
// type takes it as it is (checked by `tsc -p tsconfig.tests.json`), and its chunks arrive.
describe("a plain writer is an output observer", () => {
  it("(id, stream, chunk) => process.stdout.write(chunk) type-checks as an observer", () => {
    const writer = (_id: unknown, _stream: unknown, chunk: Uint8Array) =>
      process.stdout.write(chunk);
    expectTypeOf(writer).returns.toEqualTypeOf<boolean>();
    expectTypeOf(writer).toExtend<ShellOutputObserver>();
    expectTypeOf({ onOutput: writer }).toExtend<ShellOutputObserverObject>();
    expectTypeOf({ observer: writer }).toExtend<DispatchOptions>();
    const observer: ShellOutputObserver = (_id, _stream, chunk) => process.stderr.write(chunk);
    expect(typeof observer).toBe("function");
  });

  it("a file stream's write receives every chunk in order; its boolean is ignored", async () => {
    const { path, stream } = outputFile();
    const returned: unknown[] = [];
    const session = createOutputSession(
      (_id, _stream, chunk) => {
        const accepted = stream.write(chunk);
        returned.push(accepted);
        return accepted;
      },
      { maxBytesPerStream: 1024 },
    );
    session.emit("stdout", new TextEncoder().encode("one "));
    session.emit("stderr", new TextEncoder().encode("two "));
    session.emit("stdout", new TextEncoder().encode("three"));
    session.finish();
    await session.idle();
    await closed(stream);
    expect(readFileSync(path, "utf8")).toBe("one two three");
    expect(returned).toEqual([true, true, true]);
    expect(session.state).toBe("finished");
  });

  it("the object form's onOutput may be a writer too, and onFinish still runs once", async () => {
    const { path, stream } = outputFile();
    let finished = 0;
    const session = createOutputSession(
      {
        onOutput: (_id, _stream, chunk) => stream.write(chunk),
        onFinish: () => {
          finished += 1;
          return stream.write("|end");
        },
      },
      { maxBytesPerStream: 1024 },
    );
    session.emit("stdout", new TextEncoder().encode("body"));
    session.finish();
    await session.idle();
    await closed(stream);
    expect(readFileSync(path, "utf8")).toBe("body|end");
    expect(finished).toBe(1);
  });
});
