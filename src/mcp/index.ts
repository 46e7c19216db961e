// The MCP server factory: resources, the Skills extension, tools and prompts over a scoped shelf.
export { DEFAULT_VIEW, parseRequestSettings, type RequestView, type Use } from "./request-view.js";
export { buildMcpServer, CONNECTION_METHODS, handledMethods, type ServerDeps } from "./server.js";
export type { ShelfAccess } from "./shelf-access.js";
export { announceOverHttp, type Session, SessionRegistry } from "./sessions.js";
