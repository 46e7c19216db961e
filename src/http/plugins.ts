// Plugin marketplaces over HTTP: `marketplace.json` for the caller's scope and for each library, and every plugin the
// caller sees as a read-only git remote over smart HTTP (`git upload-pack --stateless-rpc`: protocol v2, shallow
// clones, incremental fetches). The caller is identified as on /mcp, with the token also accepted as the password of
// HTTP Basic (what git sends), or by a personal link (`/feeds/<token>/plugins/…`). A push is refused; an unknown
// repository and one out of scope are the same 404 (a caller without a credential is first asked for one, as git
// expects). Pack generation runs a bounded number of git processes with bounded memory, and stops when the client
// goes away. A token never reaches a log line, a metric label or an error.
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { Express, Request, Response } from "express";
import type { Ceiling } from "../config/index.js";
import type { ShelfAccess } from "../mcp/index.js";
import {
  SCOPE_MARKETPLACE,
  findPlugin,
  formatMarketplace,
  libraryMarketplaceName,
  listPlugins,
  pluginContent,
  PluginRepos,
  type ListedPlugin,
  type PluginContent,
  type ReadEntry,
} from "../plugins/index.js";
import { compileScope, scopeOn, type ScopeOn } from "../resolve/index.js";
import type { Shelf } from "../shelf/index.js";
import type { AccessHolder, Identified } from "./access.js";
import { bearerToken, identifyCaller } from "./access.js";
import type { FeedTokens } from "./feeds.js";
import { Slots, uploadPack } from "./upload-pack.js";

/** `[/feeds/<token>]/plugins[/libraries/<library>]/marketplace.json` */
const MARKETPLACE_ROUTE = /^(?:\/feeds\/([^/]+))?\/plugins(?:\/libraries\/([^/]+))?\/marketplace\.json$/;
/** `[/feeds/<token>]/plugins/git/<library>/<plugin>.git/<what git asks for>` */
const GIT_ROUTE = /^(?:\/feeds\/([^/]+))?\/plugins\/git\/([^/]+)\/([^/]+)\.git\/(.*)$/;
const NOT_FOUND = "not found: no plugin or marketplace at this address for this caller\n";
const CHALLENGE = 'Basic realm="skillshelf", charset="UTF-8"';
/** What a Git-Protocol header may say (`version=2`): anything else is not passed to git. */
const GIT_PROTOCOL = /^[A-Za-z0-9=:.,_-]{1,100}$/;

export interface PluginLimits {
  /** upload-pack processes at once; more wait. */
  readonly packs: number;
  /** pack.windowMemory and pack.deltaCacheSize of each, in git's notation. */
  readonly packMemory: string;
}

export const DEFAULT_PLUGIN_LIMITS: PluginLimits = { packs: 4, packMemory: "64m" };

export interface PluginMount {
  readonly shelf: ShelfAccess;
  /** Who may read what: the access the config running now gives (a reload replaces it). */
  readonly access: AccessHolder;
  readonly repos: PluginRepos;
  readonly feeds?: FeedTokens;
  readonly limits?: PluginLimits;
  readonly onError: (error: unknown) => void;
}

/** The repositories' folder when the server is given none: below the system's temporary folder. */
export function defaultPluginRepos(): PluginRepos {
  return new PluginRepos({ dir: path.join(os.tmpdir(), `skillshelf-plugins-${process.pid}`) });
}

export function routePlugins(app: Express, mount: PluginMount): void {
  // The caller is identified as on /mcp, under the access in place now (a reload replaces it); a Basic password is
  // a token too.
  const identify = async (authorization: string | undefined): Promise<Identified> => {
    const access = mount.access.current;
    const identified = await identifyCaller(access, authorization, tokenOf);
    if (identified.kind === "refused") access.onTokenRefused?.(identified.refusal);
    return identified;
  };
  const slots = new Slots(mount.limits?.packs ?? DEFAULT_PLUGIN_LIMITS.packs);
  app.get(MARKETPLACE_ROUTE, (req, res, next) => {
    answerMarketplace(req, res, mount, identify).catch(next);
  });
  app.all(GIT_ROUTE, (req, res, next) => {
    answerGit(req, res, mount, identify, slots).catch(next);
  });
}

/** The token of `Authorization: Basic` (the password; the user name is anything, or the token itself with an empty
 *  password) or `Bearer`. */
function tokenOf(authorization: string): string | undefined {
  const bearer = bearerToken(authorization);
  if (bearer !== undefined) return bearer;
  const basic = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(authorization);
  if (basic === null) return undefined;
  const decoded = Buffer.from(basic[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const password = decoded.slice(colon + 1);
  const token = password === "" ? decoded.slice(0, colon) : password;
  return token === "" ? undefined : token;
}

interface View {
  readonly shelf: Shelf;
  readonly on: ScopeOn;
  readonly plugins: readonly ListedPlugin[];
  /** The caller sent no credential (a 401 asks for one before a 404 is said). */
  readonly anonymous: boolean;
  /** The prefix of this caller's addresses: `/feeds/<token>` or nothing. */
  readonly prefix: string;
}

type Outcome = { readonly view: View } | { readonly refuse: "challenge" | "notFound" };

async function viewOf(
  req: Request,
  res: Response,
  feed: string | undefined,
  mount: PluginMount,
  identify: (authorization: string | undefined) => Promise<Identified>,
): Promise<Outcome> {
  let ceiling: Ceiling | null;
  let anonymous = false;
  if (feed !== undefined) {
    // The link is a credential: a page it is opened from must not send it on.
    res.set("Referrer-Policy", "no-referrer");
    const identity = mount.feeds === undefined ? null : await mount.feeds.verify(feed);
    if (identity === null) return { refuse: "notFound" };
    ceiling = identity.scope;
  } else {
    const identified = await identify(req.headers.authorization);
    if (identified.kind !== "caller") return { refuse: "challenge" };
    if (identified.caller === null && !mount.access.current.anonymous) return { refuse: "challenge" };
    anonymous = identified.caller === null;
    ceiling = identified.caller?.scope ?? mount.access.current.anonymousScope ?? null;
  }
  const shelf = mount.shelf.current;
  const compiled = compileScope(shelf, ceiling, {});
  if (!compiled.ok) return { refuse: "notFound" };
  return {
    view: {
      shelf,
      on: scopeOn(ceiling, {}),
      plugins: listPlugins(shelf, compiled.scope),
      anonymous,
      prefix: feed === undefined ? "" : `/feeds/${feed}`,
    },
  };
}

function refuse(res: Response, how: "challenge" | "notFound"): void {
  res.set("Cache-Control", "private, no-store").type("text/plain; charset=utf-8");
  if (how === "challenge")
    return void res.status(401).set("WWW-Authenticate", CHALLENGE).send("this remote needs your token as the password\n");
  res.status(404).send(NOT_FOUND);
}

/** Contents by shelf: a plugin's digest is worked out once per shelf. */
const contents = new WeakMap<Shelf, Map<string, PluginContent>>();

function contentOf(shelf: Shelf, listed: ListedPlugin): PluginContent {
  let byPlugin = contents.get(shelf);
  if (byPlugin === undefined) contents.set(shelf, (byPlugin = new Map()));
  const key = `${listed.library}\0${listed.plugin}`;
  let content = byPlugin.get(key);
  if (content === undefined) byPlugin.set(key, (content = pluginContent(shelf, listed)));
  return content;
}

function overTls(req: Request): boolean {
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return req.secure || first === "https";
}

/** The git URL of a plugin for this request's caller. */
export function gitPath(listed: Pick<ListedPlugin, "library" | "plugin">): string {
  return `/plugins/git/${encodeURIComponent(listed.library)}/${encodeURIComponent(listed.plugin)}.git`;
}

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

async function answerMarketplace(
  req: Request,
  res: Response,
  mount: PluginMount,
  identify: (authorization: string | undefined) => Promise<Identified>,
): Promise<void> {
  const match = MARKETPLACE_ROUTE.exec(req.path);
  const outcome = await viewOf(req, res, match?.[1], mount, identify);
  if ("refuse" in outcome) return refuse(res, outcome.refuse);
  const { view } = outcome;
  const library = match?.[2] === undefined ? undefined : decoded(match[2]);
  if (library === null) return refuse(res, "notFound");
  const plugins = library === undefined ? view.plugins : view.plugins.filter((listed) => listed.library === library);
  if (library !== undefined && plugins.length === 0)
    return refuse(res, view.anonymous && !mount.access.current.anonymous ? "challenge" : "notFound");
  const origin = `${overTls(req) ? "https" : "http"}://${req.get("host") ?? "localhost"}`;
  const marketplace = formatMarketplace({
    name: library === undefined ? SCOPE_MARKETPLACE : libraryMarketplaceName(library),
    description: library === undefined ? "Every plugin this skillshelf serves you" : `The plugins of the library ${library}`,
    plugins: plugins.map((listed) => contentOf(view.shelf, listed)),
    urlOf: (content) => `${origin}${view.prefix}${gitPath(content.listed)}`,
  });
  const etag = `"sha256:${createHash("sha256").update(marketplace.body).digest("hex")}"`;
  res.set("Cache-Control", "private, no-cache").set("ETag", etag).vary("Authorization");
  if (req.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag) === true) return void res.status(304).end();
  res.type("application/json").send(marketplace.body);
}

function reader(access: ShelfAccess, on: ScopeOn): ReadEntry {
  return async (uri) => {
    const outcome = await access.read(uri, on);
    if (!outcome.ok) return null;
    return "text" in outcome ? Buffer.from(outcome.text, "utf8") : Buffer.from(outcome.blob, "base64");
  };
}

async function answerGit(
  req: Request,
  res: Response,
  mount: PluginMount,
  identify: (authorization: string | undefined) => Promise<Identified>,
  slots: Slots,
): Promise<void> {
  const match = GIT_ROUTE.exec(req.path);
  if (match === null) return refuse(res, "notFound");
  const outcome = await viewOf(req, res, match[1], mount, identify);
  if ("refuse" in outcome) return refuse(res, outcome.refuse);
  const { view } = outcome;
  const library = decoded(match[2] as string);
  const plugin = decoded(match[3] as string);
  const listed = view.plugins.find((each) => each.library === library && each.plugin === plugin);
  // Nothing this caller sees: asked for a credential first when none was sent, else the one 404.
  if (listed === undefined || findPlugin(view.shelf, listed.library, listed.plugin) === null) {
    return refuse(res, view.anonymous ? "challenge" : "notFound");
  }
  const what = match[4] as string;
  const service = typeof req.query["service"] === "string" ? req.query["service"] : undefined;
  if (what === "git-receive-pack" || (what === "info/refs" && service === "git-receive-pack")) {
    res.status(403).type("text/plain; charset=utf-8").send("pushes are refused: this remote is read-only\n");
    return;
  }
  const advertise = what === "info/refs" && req.method === "GET" && service === "git-upload-pack";
  const pack = what === "git-upload-pack" && req.method === "POST";
  if (!advertise && !pack) return refuse(res, "notFound");
  if (pack && req.headers["content-type"] !== "application/x-git-upload-pack-request") {
    res.status(415).type("text/plain; charset=utf-8").send("a fetch is application/x-git-upload-pack-request\n");
    return;
  }
  const built = await mount.repos.repo(contentOf(view.shelf, listed), reader(mount.shelf, view.on));
  const protocolHeader = req.headers["git-protocol"];
  const protocol = typeof protocolHeader === "string" && GIT_PROTOCOL.test(protocolHeader) ? protocolHeader : undefined;
  res.set("Cache-Control", "no-cache, max-age=0, must-revalidate");
  if (advertise) {
    res.type("application/x-git-upload-pack-advertisement");
    // Protocol v0/v1 open with the service line; v2 starts with its capabilities.
    if (protocol?.includes("version=2") !== true) res.write("001e# service=git-upload-pack\n0000");
  } else {
    res.type("application/x-git-upload-pack-result");
  }
  await slots.run(() =>
    uploadPack(req, res, built.dir, advertise, protocol, {
      memory: mount.limits?.packMemory ?? DEFAULT_PLUGIN_LIMITS.packMemory,
      onError: mount.onError,
    }),
  );
}
