/** Version of every result shape in this package (envelope and fs-tool results). */
export const SCHEMA_VERSION = 1 as const;
