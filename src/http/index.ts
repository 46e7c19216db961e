// The HTTP face: /mcp, /health, /reindex, the page, and the tokens that decide who sees what.
export type { Client } from "./access.js";
export { createHttpApp } from "./app.js";
export { Readiness, type ReadinessState } from "./probes.js";
