import { useTempDirs as tempDirs } from "@agent-bridle-tools/test-kit";

export { registryWith } from "@agent-bridle-tools/test-kit";

/** Temp directories (real paths) removed after each test. */
export const useTempDirs = () => tempDirs("bridle-host-");
