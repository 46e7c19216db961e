// Usage counting where reads are served: each use a surface reports (a read answered, a skill got, a search run)
// is turned into a count of the store: the skill it belongs to (its library, its address, the digest of its SKILL.md
// as served), the client (a static client's name; for a signed-in user the configured claim) and the surface. A use
// that is not of a skill (an index, a manifest, a library file) is not counted. Counting is a synchronous update of
// memory: it never waits for the database.
import type { Express, Request, Response } from "express";
import { parseSkillUri } from "../address/index.js";
import { memoizeBy } from "../memo/index.js";
import { claimAt, type Identity } from "../oauth/index.js";
import type { ReadOutcome, ScopeOn } from "../resolve/index.js";
import { compileScope } from "../resolve/index.js";
import type { SearchOutcome, SearchRequest } from "../search/index.js";
import type { Shelf } from "../shelf/index.js";
import type { ShelfAccess, Use } from "../mcp/index.js";
import { callerOf } from "./access.js";
import { UsageTotals } from "./usage-metrics.js";
import { normaliseQuery, StoreUnavailableError, type UsageStatus, type UsageStore, type Window } from "../store/index.js";
import {
  COLUMNS,
  formatCsv,
  SEARCH_TABLES,
  SEARCHES_NEED_SHELF,
  seenBy,
  TABLES,
  TableRefusedError,
  usageTable,
  type Table,
  type UsageRow,
} from "./usage-report.js";

/** What the page's reader answers: rows, or a refusal with its status. */
type PageAnswer = { ok: true; rows: readonly UsageRow[] } | { ok: false; status: 403 | 503; message: string };

/** What a caller without a token is recorded as. */
export const ANONYMOUS_CLIENT = "anonymous";
/** What the page's uses are recorded as: its viewers are not told apart. */
export const PAGE_CLIENT = "page";
/** What a download through a signed-in user's install link is recorded as. */
export const INSTALL_LINK_CLIENT = "install-link";
/** The longest client label kept (a claim holding a long list is cut). */
const MAX_CLIENT_CHARS = 200;

export interface UsageTapOptions {
  readonly store: UsageStore;
  /** The shelf a use is attributed on (the one it was served from, or the one after it). */
  readonly shelf: () => Shelf;
  /** The claim a signed-in user is recorded as (`groups` by default). */
  readonly claim: string;
  readonly now: () => Date;
}

export interface SkillOfUri {
  readonly library: string;
  readonly skill: string;
  readonly digest: string;
  readonly file: "SKILL.md" | "other";
}

/** The skill a served URI belongs to: the innermost skill whose address is a prefix of the URI's and that serves the
 *  file below it; null for anything else (documents, manifests, library files, unknown URIs). */
/** `skillOfUri` held per shelf (at most this many URIs each, the oldest going first): a count asks it for every read. */
const skillOfUriOn = memoizeBy(
  100_000,
  (uri: string) => uri,
  (shelf: Shelf, uri: string) => findSkillOfUri(shelf, uri),
);

export function skillOfUri(shelf: Shelf, uri: string): SkillOfUri | null {
  return skillOfUriOn(shelf, uri);
}

function findSkillOfUri(shelf: Shelf, uri: string): SkillOfUri | null {
  const address = parseSkillUri(uri);
  if (address === null) return null;
  const library = shelf.libraries.get(address.library);
  if (library === undefined) return null;
  for (let length = address.segments.length - 1; length >= 1; length--) {
    const skill = library.skills.get(address.segments.slice(0, length).join("/"));
    if (skill === undefined) continue;
    const path = address.segments.slice(length).join("/");
    if (!skill.files.has(path)) return null;
    return {
      library: library.name,
      skill: skill.address.join("/"),
      digest: skill.files.get("SKILL.md")?.digest ?? "",
      file: path === "SKILL.md" ? "SKILL.md" : "other",
    };
  }
  return null;
}

export class UsageTap {
  /** Totals since the start by library and surface, for /metrics (usage-metrics.ts). */
  readonly totals = new UsageTotals();

  constructor(private readonly options: UsageTapOptions) {}

  get store(): UsageStore {
    return this.options.store;
  }

  /** A static client's name; for a signed-in user the configured claim (a list sorted and joined by commas);
   *  `anonymous` without a token. */
  clientOf(caller: Identity | null): string {
    if (caller === null) return ANONYMOUS_CLIENT;
    if (caller.claims === undefined) return caller.name;
    const value = claimAt(caller.claims, this.options.claim);
    const label = Array.isArray(value)
      ? value
          .map(String)
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          .join(",")
      : typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : `(no ${this.options.claim})`;
    return label.slice(0, MAX_CLIENT_CHARS);
  }

  /** What a request of `caller` reports its uses to. */
  counter(caller: Identity | null): (use: Use) => void {
    const client = this.clientOf(caller);
    return (use) => this.count(client, use);
  }

  /** What the discovery routes report a download to: an install link counts as its static client (one of
   *  `clients`), or as `install-link` when a signed-in user made it (the link does not carry the claim). */
  artifactCounter(clients: readonly string[]): (req: Request, skillMdUri: string, link: Identity | null) => void {
    const names = new Set(clients);
    return (req, uri, link) => {
      const client = link === null ? this.clientOf(callerOf(req)) : names.has(link.name) ? link.name : INSTALL_LINK_CLIENT;
      this.count(client, { kind: "read", uri, surface: "discovery" });
    };
  }

  /** Counts one use by `client`. A search is held with the skills it found, so that a read of one of them by the
   *  same client within the window marks it followed (docs/usage.md). */
  count(client: string, use: Use): void {
    const store = this.options.store;
    if (use.kind === "prompt") {
      this.totals.prompted(use.surface);
      return store.countPrompt({ library: use.library, prompt: use.name, client, surface: use.surface });
    }
    const shelf = this.options.shelf();
    if (use.kind === "search") {
      const found = use.found.flatMap((uri) => {
        const skill = skillOfUri(shelf, uri);
        return skill === null ? [] : [`${skill.library}/${skill.skill}`];
      });
      const query = normaliseQuery(use.query);
      this.totals.searched(use.surface);
      return store.countSearch({ query, client, surface: use.surface, results: use.found.length }, found);
    }
    const skill = skillOfUri(shelf, use.uri);
    if (skill === null) return;
    this.totals.read(skill.library, use.surface);
    store.countRead({ library: skill.library, skill: skill.skill, digest: skill.digest, file: skill.file, client, surface: use.surface });
  }

  /** A ShelfAccess that counts what it serves over `surface` (the page reads and searches through it). */
  counting(access: ShelfAccess, surface: string, client: string): ShelfAccess {
    const count = (use: Use): void => this.count(client, use);
    return {
      get current() {
        return access.current;
      },
      async read(uri: string, on: ScopeOn): Promise<ReadOutcome> {
        const outcome = await access.read(uri, on);
        if (outcome.ok) count({ kind: "read", uri: outcome.uri, surface });
        return outcome;
      },
      async search(request: SearchRequest, on: ScopeOn): Promise<SearchOutcome> {
        const outcome = await access.search(request, on);
        if (outcome.ok) count({ kind: "search", query: request.query, found: outcome.rows.map((row) => row.uri), surface });
        return outcome;
      },
    };
  }

  status(): UsageStatus {
    return this.options.store.status();
  }

  /** GET /usage (admin): the tables, as JSON, or one of them as CSV (`?table=…&format=csv`), scoped to what the
   *  caller's scope sees (usage-report.ts). */
  route(app: Express, admin: (req: Request, res: Response, next: () => void) => void): void {
    app.get("/usage", admin, (req, res) => void this.answer(req, res));
  }

  /** The page's reader of the tables (web/usage.ts `UsageReader`): rows for a viewer's scope, or why not. */
  pageReader(): {
    read(name: Table, page: { days: number; limit: number; offset: number }, on: ScopeOn): Promise<PageAnswer>;
  } {
    return {
      read: async (name, page, on) => {
        const shelf = this.options.shelf();
        try {
          return { ok: true, rows: await usageTable(this.options.store, shelf, on(shelf), name, { ...page, now: this.options.now() }) };
        } catch (error) {
          if (error instanceof StoreUnavailableError) return { ok: false, status: 503, message: error.message };
          if (error instanceof TableRefusedError) return { ok: false, status: 403, message: error.message };
          throw error;
        }
      },
    };
  }

  private async answer(req: Request, res: Response): Promise<void> {
    const query = new URL(req.originalUrl, "http://localhost").searchParams;
    const problems: string[] = [];
    const days = integer(query.get("days"), 7, 1, 400, "days", problems);
    const limit = integer(query.get("limit"), 50, 1, 1000, "limit", problems);
    const offset = integer(query.get("offset"), 0, 0, 1_000_000, "offset", problems);
    const table = query.get("table") ?? undefined;
    const format = query.get("format") ?? "json";
    if (table !== undefined && !TABLES.includes(table as Table)) problems.push(`table must be one of ${TABLES.join(", ")}`);
    if (format !== "json" && format !== "csv") problems.push("format must be json or csv");
    if (format === "csv" && table === undefined) problems.push("format=csv needs a table (one table per CSV)");
    const library = query.get("library") ?? undefined;
    if (problems.length > 0) return void res.status(400).json({ error: problems.join("; ") });
    const window: Window = { days, now: this.options.now(), limit, offset, ...(library === undefined ? {} : { library }) };
    const shelf = this.options.shelf();
    const scope = compileScope(shelf, callerOf(req)?.scope ?? null, {});
    if (!scope.ok) return void res.status(403).json({ error: scope.message });
    const seen = seenBy(shelf, scope.scope);
    if (table !== undefined && SEARCH_TABLES.has(table as Table) && !seen.whole)
      return void res.status(403).json({ error: SEARCHES_NEED_SHELF });
    try {
      const tables = table === undefined ? TABLES.filter((name) => seen.whole || !SEARCH_TABLES.has(name)) : [table as Table];
      const out: Record<string, readonly object[]> = {};
      for (const name of tables) out[name] = await usageTable(this.options.store, shelf, scope.scope, name, window);
      if (format === "csv") {
        res.type("text/csv; charset=utf-8").send(formatCsv(COLUMNS[table as Table], (out[table as Table] ?? []) as UsageRow[]));
        return;
      }
      res.json({ days, limit, offset, ...(library === undefined ? {} : { library }), scope: seen.whole ? "shelf" : "partial", ...out });
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      res.status(503).set("Retry-After", "30").json({ error: error.message, usage: this.status() });
    }
  }
}

function integer(raw: string | null, fallback: number, min: number, max: number, name: string, problems: string[]): number {
  if (raw === null) return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}
