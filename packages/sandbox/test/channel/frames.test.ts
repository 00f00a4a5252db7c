import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChannelReader, NO_FRAME_IN_TIME } from "../../src/channel/channel-reader.js";
import {
  encodeAck,
  encodeFrame,
  type FrameSpec,
  frameBodyLength,
  frameMagic,
} from "../../src/channel/frames.js";
import { readAck } from "../../src/channel/read-ack.js";

const SPEC: FrameSpec = { magic: frameMagic("TEST-F1\0"), minBody: 2, maxBody: 16 };

const opened: Socket[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true });
});

/** A connected unix socket pair: [writer (parent), reader (child)]. */
async function socketPair(): Promise<[Socket, Socket]> {
  const directory = await mkdtemp(join(tmpdir(), "frames-test-"));
  directories.push(directory);
  const path = join(directory, "s");
  const server = createServer({ allowHalfOpen: true });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
  const client = connect({ path, allowHalfOpen: true });
  const child = await accepted;
  server.close();
  opened.push(client, child);
  return [client, child];
}

describe("the private channels' frame", () => {
  it("encodes magic ‖ u32 LE length ‖ body and reads the header back", () => {
    const frame = encodeFrame(SPEC, Buffer.from("hello"));
    expect(frame.subarray(0, 8).toString("latin1")).toBe("TEST-F1\0");
    expect(frame.readUInt32LE(8)).toBe(5);
    expect(frame.subarray(12).toString()).toBe("hello");
    expect(frameBodyLength(SPEC, frame)).toEqual({ length: 5 });
    expect(frameBodyLength(SPEC, frame.subarray(0, 11))).toBe("more");
  });

  it("refuses a body outside the spec's bounds on both sides, and a foreign magic at its first byte", () => {
    expect(() => encodeFrame(SPEC, Buffer.alloc(17))).toThrow(RangeError);
    expect(() => encodeFrame(SPEC, Buffer.alloc(1))).toThrow(RangeError);
    expect(() => frameMagic("SHORT")).toThrow(RangeError);
    const header = encodeFrame(SPEC, Buffer.alloc(2)).subarray(0, 12);
    header.writeUInt32LE(17, 8);
    expect(frameBodyLength(SPEC, header)).toEqual({ error: "malformed frame (body length)" });
    header.writeUInt32LE(1, 8);
    expect(frameBodyLength(SPEC, header)).toEqual({ error: "malformed frame (body length)" });
    expect(frameBodyLength(SPEC, Buffer.from("X"))).toEqual({ error: "malformed frame (magic)" });
  });

  it("reads one frame over a real socket, then the end of stream; a second frame is refused", async () => {
    const [parent, child] = await socketPair();
    const reader = new ChannelReader(child, SPEC.maxBody);
    const frame = encodeFrame(SPEC, Buffer.from("abc"));
    // Split across writes: the reader waits for the whole frame.
    parent.write(frame.subarray(0, 5));
    setTimeout(() => parent.end(frame.subarray(5)), 20);
    const read = await reader.frame(SPEC, 2000);
    expect(read).toEqual({ body: Buffer.from("abc") });
    expect(await reader.endOfStream(2000)).toBeUndefined();

    const [again, other] = await socketPair();
    const twice = new ChannelReader(other, SPEC.maxBody);
    again.end(Buffer.concat([frame, frame]));
    expect(await twice.frame(SPEC, 2000)).toEqual({ body: Buffer.from("abc") });
    expect(await twice.endOfStream(2000, "more than one request")).toBe("more than one request");
  });

  it("gives up at the deadline, on an early end and on a foreign magic without waiting", async () => {
    const [quiet, waiting] = await socketPair();
    expect(await new ChannelReader(waiting, SPEC.maxBody).frame(SPEC, 50)).toEqual({
      error: NO_FRAME_IN_TIME,
    });
    quiet.end();
    const [closing, closed] = await socketPair();
    closing.end();
    expect(await new ChannelReader(closed, SPEC.maxBody).frame(SPEC, 2000)).toEqual({
      error: "end",
    });
    const [foreign, refused] = await socketPair();
    foreign.write("Y"); // the parent keeps its end open: the refusal must not wait for it
    const started = Date.now();
    expect(await new ChannelReader(refused, SPEC.maxBody).frame(SPEC, 5000)).toEqual({
      error: "malformed frame (magic)",
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("the parent takes exactly its acknowledgement and leaves what follows unread", async () => {
    const [parent, child] = await socketPair();
    const ack = encodeAck(frameMagic("TEST-A1\0"), Buffer.from("nonce"));
    const acknowledged = readAck(parent, ack);
    child.write(Buffer.concat([ack, Buffer.from("rest")]));
    expect(await acknowledged).toBe(true);
    const rest = await new Promise<Buffer>((resolve) => {
      parent.once("data", resolve);
      parent.resume();
    });
    expect(rest.toString()).toBe("rest");

    const [wrong, liar] = await socketPair();
    const refused = readAck(wrong, ack);
    liar.end(Buffer.concat([frameMagic("TEST-A1\0"), Buffer.from("other")]));
    expect(await refused).toBe(false);
    const [silent, gone] = await socketPair();
    const never = readAck(silent, ack);
    gone.end();
    expect(await never).toBe(false);
  });
});
