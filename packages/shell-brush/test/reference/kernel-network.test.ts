import { createSocket, type Socket } from "node:dgram";
import { only } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { brush, sleep } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-net-");
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

/** A UDP listener on loopback that records every datagram it gets. */
async function listener() {
  const socket = createSocket("udp4");
  sockets.push(socket);
  const received: string[] = [];
  socket.on("message", (message) => received.push(message.toString()));
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return { port: socket.address().port, received };
}

const sendFromPython = (port: number) =>
  `python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"escaped", ("127.0.0.1", ${port})); print("sent")'`;

describe("the kernel boundary under the bash worker (reference case 87)", () => {
  it("87 (adapted per spec §13: no knob): net only[] under Landlock denies a granted python3 its UDP socket; nothing is sent", async () => {
    const { port, received } = await listener();
    const { run } = brush({ kernel: true });
    const envelope = await run(
      { cmd: sendFromPython(port), cwd: tempDir() },
      { exec: only(["python3"]), net: only([]) },
    );
    expect(envelope.sandbox_kind).toBe("landlock");
    expect(envelope.exit_code).not.toBe(0);
    expect(envelope.stdout).toBe("");
    // python3 itself was admitted and ran: what failed is its socket.
    expect(envelope.denied).toBeUndefined();
    expect(envelope.stderr).toMatch(/socket\.socket|PermissionError|not permitted/);
    await sleep(200);
    expect(received).toEqual([]);
  });

  it("87 control: the same program under the same exec grant with net all sends its datagram", async () => {
    const { port, received } = await listener();
    const { run } = brush({ kernel: true });
    const envelope = await run(
      { cmd: sendFromPython(port), cwd: tempDir() },
      { exec: only(["python3"]) },
    );
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "sent\n" });
    for (let tries = 0; tries < 50 && received.length === 0; tries += 1) await sleep(20);
    expect(received).toEqual(["escaped"]);
  });
});
