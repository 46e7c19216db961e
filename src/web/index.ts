// The page for people: a small server-rendered web application over the scoped shelf, mounted by http/.
export { createWebRouter, PAGE_ROWS, type WebAccess, type WebDeps, type WebIdentified, type WebViewer } from "./router.js";
export { CONTENT_SECURITY_POLICY, CSRF_COOKIE, TOKEN_COOKIE } from "./security.js";
