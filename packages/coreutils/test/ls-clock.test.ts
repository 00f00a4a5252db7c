import { describe, expect, it } from "vitest";
import { formatTime, LsClock } from "../src/ls/format-time.js";

const ms = (value: number) => BigInt(value) * 1_000_000n;
const recent = /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d$/;
const dated = /^[A-Z][a-z]{2} [ \d]\d {2}\d{4}$/;

describe("ls -l time style against GNU's clock", () => {
  it("re-reads the clock for a file that looks newer than it (modified while ls runs): recent, not future", async () => {
    const clock = new LsClock();
    const modifiedAfterStart = ms(Date.now() + 30);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(formatTime(modifiedAfterStart, clock)).toMatch(recent);
  });

  it("a file really in the future, or older than six months, shows the year", () => {
    const clock = new LsClock();
    expect(formatTime(ms(Date.now() + 86_400_000), clock)).toMatch(dated);
    expect(formatTime(ms(Date.now() - 200 * 86_400_000), clock)).toMatch(dated);
    expect(formatTime(ms(Date.now() - 60_000), clock)).toMatch(recent);
  });
});
