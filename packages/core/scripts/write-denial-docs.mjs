// Regenerates denials/README.md from CODE_DOCS: `pnpm --filter @agent-bridle/core gen:docs`.
// The committed page is drift-checked by test/codes/codes.test.ts.
import { writeFileSync } from "node:fs";
import { renderCodeDocs } from "../dist/codes/render-code-docs.js";
import { CODE_DOCS } from "../dist/index.js";

writeFileSync(new URL("../denials/README.md", import.meta.url), renderCodeDocs(CODE_DOCS));
