// The Agent Skills discovery index and its artifacts over HTTP, for installers (`npx skills add <URL>`) and agents
// that read the index themselves. The caller is identified as on /mcp (a static token, an OAuth access token, or the
// anonymous ceiling) and sees exactly what /mcp would show it; an unknown skill and one out of scope are the same
// 404. ETag is the digest, If-None-Match answers 304, and no shared cache may keep an answer (`private`).
import type { Express, Request, RequestHandler, Response } from "express";
import type { Ceiling } from "../config/index.js";
import { artifactPath, Discovery, isUnder, WELL_KNOWN_PATH, type Base, type ReadBytes } from "../discovery/index.js";
import type { ShelfAccess } from "../mcp/index.js";
import { compileScope, findSkillBySkillMd, scopeOn, visibleSkills, type ScopeOn } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";
import type { FeedTokens } from "./feeds.js";
import type { Identity } from "../oauth/index.js";
import { formatSkillMdUri } from "../address/index.js";

/** `[/feeds/<token>][/libraries/<library>[/<folder…>]]/.well-known/agent-skills/index.json` */
const INDEX_ROUTE = new RegExp(`^(?:/feeds/([^/]+))?(?:/libraries/(.+))?/${WELL_KNOWN_PATH.replace(/[.]/g, "\\.")}/index\\.json$`);
/** `[/feeds/<token>]/artifacts/<library>/<address…>/(SKILL.md|skill.tar.gz)` */
const ARTIFACT_ROUTE = /^(?:\/feeds\/([^/]+))?\/artifacts\/(.+)\/(SKILL\.md|skill\.tar\.gz)$/;
const NOT_FOUND = { error: "not found: no skill or index at this address for this caller" };

export interface DiscoveryMount {
  readonly shelf: ShelfAccess;
  readonly discovery: Discovery;
  /** Identifies the caller as /mcp does (refusing a bad token) before the answer is made. */
  readonly authenticate: RequestHandler;
  /** The ceiling of the request's caller (its token's, or the anonymous one). */
  readonly ceilingOf: (req: Request) => Ceiling | null;
  /** Personal install links; absent: every `/feeds/…` address is a 404. */
  readonly feeds?: FeedTokens;
  /** Told of each artifact downloaded (not of a 304): usage counting, when it is on. */
  readonly onArtifact?: (req: Request, skillMdUri: string, link: Identity | null) => void;
}

/** The routes, mounted ahead of the page (whose `/libraries/…` would otherwise take the narrower indexes). */
export function routeDiscovery(app: Express, mount: DiscoveryMount): void {
  // A feed link carries its caller in the path (installers send no header); any other address is identified as
  // /mcp is.
  const identify: RequestHandler = (req, res, next) => (req.path.startsWith("/feeds/") ? next() : mount.authenticate(req, res, next));
  app.get(INDEX_ROUTE, identify, (req, res, next) => {
    answerIndex(req, res, mount).catch(next);
  });
  app.get(ARTIFACT_ROUTE, identify, (req, res, next) => {
    answerArtifact(req, res, mount).catch(next);
  });
}

/** The ceiling a request reads under: a feed link's (null when the link is not valid: a 404 follows), or the
 *  caller's as /mcp identified it. */
async function ceilingFor(
  req: Request,
  res: Response,
  feed: string | undefined,
  mount: DiscoveryMount,
): Promise<{ ceiling: Ceiling | null; link?: Identity } | null> {
  if (feed === undefined) return { ceiling: mount.ceilingOf(req) };
  // The link is a credential: a page it is opened from must not send it on.
  res.set("Referrer-Policy", "no-referrer");
  const identity = mount.feeds === undefined ? null : await mount.feeds.verify(feed);
  return identity === null ? null : { ceiling: identity.scope, link: identity };
}

/** Path segments after a route prefix, decoded; null when one cannot be decoded or is empty. */
function segmentsOf(raw: string): string[] | null {
  const out: string[] = [];
  for (const part of raw.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment === "" || segment === "." || segment === ".." || segment.includes("/")) return null;
    out.push(segment);
  }
  return out;
}

function callerView(ceiling: Ceiling | null, mount: DiscoveryMount): { shelf: Shelf; scope: ReturnType<ScopeOn>; on: ScopeOn } | null {
  const shelf = mount.shelf.current;
  const compiled = compileScope(shelf, ceiling, {});
  if (!compiled.ok) return null;
  return { shelf, scope: compiled.scope, on: scopeOn(ceiling, {}) };
}

function reader(access: ShelfAccess, on: ScopeOn): ReadBytes {
  return async (uri) => {
    const outcome = await access.read(uri, on);
    if (!outcome.ok) return null;
    return "text" in outcome ? new TextEncoder().encode(outcome.text) : new Uint8Array(Buffer.from(outcome.blob, "base64"));
  };
}

function notFound(res: Response): void {
  res.status(404).set("Cache-Control", "private, no-store").json(NOT_FOUND);
}

/** Shared caches never keep an answer (it is a caller's); the client revalidates with the ETag every time. */
function setCaching(res: Response, digest: string): void {
  res.set("Cache-Control", "private, no-cache");
  res.set("ETag", `"${digest}"`);
  res.vary("Authorization");
}

function fresh(req: Request, digest: string): boolean {
  const sent = req.headers["if-none-match"];
  if (sent === undefined) return false;
  return sent.split(",").some((tag) => tag.trim().replace(/^W\//, "") === `"${digest}"` || tag.trim() === "*");
}

async function answerIndex(req: Request, res: Response, mount: DiscoveryMount): Promise<void> {
  const match = INDEX_ROUTE.exec(req.path);
  const caller = await ceilingFor(req, res, match?.[1], mount);
  const raw = match?.[2];
  const segments = raw === undefined ? [] : segmentsOf(raw);
  const view = caller === null ? null : callerView(caller.ceiling, mount);
  if (segments === null || view === null) return notFound(res);
  const [library, ...folder] = segments;
  const base: Base = library === undefined ? { folder: [] } : { library, folder };
  const visible = visibleSkills(view.shelf, view.scope);
  // A base that holds nothing the caller sees answers as one that does not exist.
  if (library !== undefined && !visible.some((skill) => isUnder(skill, base))) return notFound(res);
  const index = await mount.discovery.index(view.shelf, view.scope.key, base, visible, reader(mount.shelf, view.on));
  setCaching(res, index.digest);
  res.vary("Accept-Encoding");
  if (fresh(req, index.digest)) return void res.status(304).end();
  res.type("application/json");
  if (req.acceptsEncodings("gzip", "identity") === "gzip") {
    res.set("Content-Encoding", "gzip").set("Content-Length", String(index.gzipped.byteLength)).end(Buffer.from(index.gzipped));
    return;
  }
  res.set("Content-Length", String(index.body.byteLength)).end(Buffer.from(index.body));
}

async function answerArtifact(req: Request, res: Response, mount: DiscoveryMount): Promise<void> {
  const match = ARTIFACT_ROUTE.exec(req.path);
  const caller = await ceilingFor(req, res, match?.[1], mount);
  const segments = match === null ? null : segmentsOf(match[2] as string);
  const view = caller === null ? null : callerView(caller.ceiling, mount);
  if (match === null || segments === null || segments.length < 2 || view === null) return notFound(res);
  const [library, ...address] = segments as [string, ...string[]];
  const skill = findSkillBySkillMd(view.shelf, view.scope, formatSkillMdUri(library, address)) ?? undefined;
  if (skill === undefined) return notFound(res);
  const artifact = await mount.discovery.artifact(view.shelf, skill, reader(mount.shelf, view.on));
  // The name the caller asked for must be the artifact's kind: a skill served as SKILL.md has no archive.
  if (artifactPath(skill, artifact.type).at(-1) !== match[3]) return notFound(res);
  setCaching(res, artifact.digest);
  if (fresh(req, artifact.digest)) return void res.status(304).end();
  mount.onArtifact?.(req, formatSkillMdUri(library, address), caller?.link ?? null);
  res.type(artifact.type === "skill-md" ? "text/markdown; charset=utf-8" : "application/gzip");
  res.set("Content-Length", String(artifact.bytes.byteLength)).end(Buffer.from(artifact.bytes));
}
