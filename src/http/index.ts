// The HTTP face: /mcp, /health, /reindex, the page, and the tokens that decide who sees what.
export { type Access, AccessHolder, type Client } from "./access.js";
export { createHttpApp } from "./app.js";
export { Readiness, type ReadinessState } from "./probes.js";
export { checkListen, formatHostPort, HEADERS_TIMEOUT_MS, listen, ListenError, REQUEST_TIMEOUT_MS } from "./listen.js";
export { isLoopback, refuseExposure } from "./exposure.js";
export { type RequestRecord, ServerMetrics } from "./metrics.js";
export { DRAIN_GRACE_MS, type HttpServing, serveHttp } from "./serve.js";
export { FeedTokens, MIN_FEED_SECRET_BYTES, type FeedClient, type FeedHolder, type FeedOptions, type IssuedFeed } from "./feeds.js";
export { isClientMistake, RefusalLog } from "./refusal-log.js";
export { ANONYMOUS_CLIENT, PAGE_CLIENT, skillOfUri, UsageTap, type UsageTapOptions } from "./usage.js";
