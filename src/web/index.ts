// The page for people: a small server-rendered web application over the scoped shelf, mounted by http/.
export { createWebRouter } from "./router.js";
export type { WebAccess, WebDeps, WebIdentified, WebViewer } from "./deps.js";
export { PAGE_ROWS } from "./views/parts.js";
export { CONTENT_SECURITY_POLICY, CSRF_COOKIE, TOKEN_COOKIE } from "./security.js";
export { ExpiringStore, MAX_SESSIONS, MemorySessions, parsePageSession, type PageSession, type SessionKeeper } from "./sessions.js";
