/** A small seeded pseudo-random source (mulberry32): the same seed yields the same scripts. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of the producers, by weight (`[weight, producer]` pairs). */
  weighted<T>(choices: readonly (readonly [number, () => T])[]): T {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [weight, produce] of choices) {
      at -= weight;
      if (at < 0) return produce();
    }
    return (choices[choices.length - 1] as readonly [number, () => T])[1]();
  }

  /** `count` items from `produce`, with `count` in [min, max]. */
  repeat<T>(min: number, max: number, produce: () => T): T[] {
    return Array.from({ length: this.int(min, max) }, produce);
  }
}
