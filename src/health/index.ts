// Reads a built shelf for its operator: the citation audit, the /health report, the check summary, and the
// fingerprint that tells a rebuild that changed nothing.
export { auditCitations } from "./citations.js";
export { fingerprintShelf } from "./fingerprint.js";
export { buildHealth, hasProblems, type HealthReport } from "./health.js";
export { formatCheckReport } from "./report.js";
