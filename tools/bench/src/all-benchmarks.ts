import type { Benchmark } from "./benchmark.js";
import { brushColdEcho } from "./benchmarks/brush-cold-echo.js";
import { brushLoop } from "./benchmarks/brush-loop.js";
import { brushLsFallback } from "./benchmarks/brush-ls-fallback.js";
import { brushSoak1000 } from "./benchmarks/brush-soak.js";
import { brushWarmEcho } from "./benchmarks/brush-warm-echo.js";
import { brushBackToBack, concurrency32, concurrency64 } from "./benchmarks/concurrency-burst.js";
import { coreutilsCat } from "./benchmarks/coreutils-cat.js";
import { coreutilsSort } from "./benchmarks/coreutils-sort.js";
import { coreutilsWcL } from "./benchmarks/coreutils-wc-l.js";
import { dispatchOverhead } from "./benchmarks/dispatch-overhead.js";
import { fsListDirectory } from "./benchmarks/fs-list-directory.js";
import { fsReadFile } from "./benchmarks/fs-read-file.js";
import { mcpRoundtrip } from "./benchmarks/mcp-roundtrip.js";
import { netProxyCall, netProxyDownload } from "./benchmarks/net-proxy.js";
import { sandboxSpawn } from "./benchmarks/sandbox-spawn.js";
import { shellHostTrue } from "./benchmarks/shell-host-true.js";
import { shellSafeEcho } from "./benchmarks/shell-safe-echo.js";
import { shellSafeFloodMemory } from "./benchmarks/shell-safe-flood-memory.js";
import { shellSafePipeline } from "./benchmarks/shell-safe-pipeline.js";

/** Every benchmark `pnpm bench` runs, in order. Add new ones here and in README.md. */
export const ALL_BENCHMARKS: readonly Benchmark[] = Object.freeze([
  dispatchOverhead,
  sandboxSpawn,
  shellHostTrue,
  shellSafeEcho,
  shellSafePipeline,
  shellSafeFloodMemory,
  brushColdEcho,
  brushWarmEcho,
  brushLoop,
  brushLsFallback,
  brushBackToBack,
  concurrency32,
  concurrency64,
  brushSoak1000,
  coreutilsWcL,
  coreutilsCat,
  coreutilsSort,
  fsReadFile,
  fsListDirectory,
  mcpRoundtrip,
  netProxyDownload,
  netProxyCall,
]);
