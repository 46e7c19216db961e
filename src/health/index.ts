// Reads a built shelf for its operator: the citation audit, the /health report, the check summary, and the
// fingerprint that tells a rebuild that changed nothing.
export { auditCitations } from "./citations.js";
export { fingerprintShelf } from "./fingerprint.js";
export { buildHealth, buildHealthInSteps, countProblems, hasProblems, type HealthReport, healthBasis } from "./health.js";
export { HEALTH_STATUSES, type HealthStatus, httpStatusOf, statusOf } from "./status.js";
export { formatCheckReport } from "./report.js";
export { type HealthChange, healthChanges } from "./changes.js";
export { formatSarif, localFolders } from "./sarif.js";
