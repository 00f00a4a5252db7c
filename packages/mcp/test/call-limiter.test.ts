import { describe, expect, it } from "vitest";
import { CallLimiter } from "../src/call-limiter.js";

const never = new AbortController().signal;

describe("CallLimiter", () => {
  it("runs at most the limit at once, then hands slots over in order", async () => {
    const limiter = new CallLimiter(2, 8);
    const first = await limiter.acquire(never);
    const second = await limiter.acquire(never);
    const order: number[] = [];
    const third = limiter.acquire(never).then((release) => {
      order.push(3);
      return release;
    });
    const fourth = limiter.acquire(never).then((release) => {
      order.push(4);
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first?.();
    (await third)?.();
    second?.();
    (await fourth)?.();
    expect(order).toEqual([3, 4]);
  });

  it("refuses beyond the waiting room and drops an aborted waiter", async () => {
    const limiter = new CallLimiter(1, 1);
    const held = await limiter.acquire(never);
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    expect(await limiter.acquire(never)).toBeUndefined();
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    held?.();
    const next = await limiter.acquire(never);
    expect(next).toBeTypeOf("function");
  });
});
