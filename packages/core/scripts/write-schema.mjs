// Regenerates schema/caveats.schema.json from the built code: `pnpm --filter @agent-bridle/core gen:schema`.
// The committed file is drift-checked by test/caveats/parse-caveats.test.ts.
import { writeFileSync } from "node:fs";
import { caveatsJsonSchema } from "../dist/index.js";

writeFileSync(
  new URL("../schema/caveats.schema.json", import.meta.url),
  `${JSON.stringify(caveatsJsonSchema(), null, 2)}\n`,
);
