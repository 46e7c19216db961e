// The page's panels beside browsing: search over the same index as `search_skills`, the connect panel, and the
// health view for admins.
import { compareCodeUnits, parseSkillUri, pluginName } from "../address/index.js";
import { buildHealth } from "../health/index.js";
import { findSkillBySkillMd, libraryView } from "../resolve/index.js";
import { MAX_QUERY_LENGTH } from "../search/index.js";
import { shownLibrary } from "./browse.js";
import { pageOf } from "./layout.js";
import { overTls } from "./security.js";
import { badRequest, notFound, type PageCall, queryText, send } from "./visit.js";
import { connectView } from "./views/connect.js";
import { healthRows, healthView } from "./views/health.js";
import { forAdminsView } from "./views/messages.js";
import { PAGE_ROWS } from "./views/parts.js";
import { type SearchData, type SearchResults, searchView } from "./views/search.js";

const SEARCH_ROWS = 20;

export async function search(call: PageCall): Promise<void> {
  const { req, visit } = call;
  const q = queryText(req, "q")?.trim() ?? "";
  const asked = queryText(req, "library") ?? "";
  const libraries = [...visit.shelf.libraries.keys()]
    .sort(compareCodeUnits)
    .filter((name) => (shownLibrary(visit, name)?.skills.size ?? 0) > 0);
  const answer = (status: number, results: SearchResults): void => {
    const data: SearchData = { q, asked, libraries, results };
    send(call.res, status, visit, searchView(data));
  };
  if (q === "") return answer(200, { kind: "asked-nothing" });
  if (q.length > MAX_QUERY_LENGTH) return answer(400, { kind: "too-long" });
  if (asked !== "" && !libraries.includes(asked)) return answer(400, { kind: "no-library" });
  const request = { query: q, library: asked === "" ? null : asked, limit: SEARCH_ROWS };
  const outcome = await call.context.deps.shelf.search(request, visit.scopeOn);
  if (!outcome.ok) return answer(400, { kind: "refused", message: outcome.message });
  const rows = outcome.rows.map((row) => {
    const parsed = parseSkillUri(row.uri);
    const full = findSkillBySkillMd(visit.shelf, visit.view.scope, row.uri);
    return {
      library: parsed?.library ?? "",
      address: parsed === null ? [] : parsed.segments.slice(0, -1),
      name: row.name,
      description: full?.description ?? row.description,
    };
  });
  answer(200, { kind: "rows", rows });
}

export async function connect(call: PageCall): Promise<void> {
  const { req, res, visit } = call;
  const access = call.context.deps.access;
  const libraries = [...visit.shelf.libraries.keys()].sort(compareCodeUnits).filter((name) => shownLibrary(visit, name) !== null);
  const asked = queryText(req, "library") ?? "";
  if (asked !== "" && !libraries.includes(asked)) return notFound(call);
  const url = new URL("/mcp", `${overTls(req) ? "https" : "http"}://${req.get("host") ?? "localhost"}`);
  if (asked !== "") url.searchParams.set("library", asked);
  const viewer = visit.viewer;
  // One personal link per page, for the installer and the plugin marketplace alike.
  const link = viewer !== null && access.installLink !== undefined ? await access.installLink(viewer) : undefined;
  if (link !== undefined) {
    // The link is a credential: no page opened from here learns it, and no cache keeps it.
    res.set("Referrer-Policy", "no-referrer");
    res.set("Cache-Control", "no-store");
  }
  const ids = new Set<string>();
  for (const name of visit.shelf.libraries.keys()) {
    if (asked !== "" && name !== asked) continue;
    for (const skill of libraryView(visit.view, name)?.skills.values() ?? []) ids.add(skill.plugin);
  }
  const view = connectView({
    url,
    asked,
    libraries,
    viewer: viewer === null ? null : { name: viewer.name, withProvider: viewer.signedIn === true },
    ceiling: viewer?.scope ?? access.anonymousScope ?? null,
    signIn: visit.frame.signIn,
    link,
    plugins: [...new Set([...ids].map(pluginName))].sort(compareCodeUnits),
  });
  send(res, 200, visit, view);
}

export function status(call: PageCall): void {
  const { req, visit } = call;
  if (!visit.admin) return send(call.res, 403, visit, forAdminsView());
  const report = buildHealth(visit.shelf);
  const rows = healthRows(report, call.context.deps.configErrors?.() ?? []);
  const paged = pageOf(rows, req.query["page"], PAGE_ROWS * 2);
  if (!paged.ok) return badRequest(call, paged.message);
  send(call.res, 200, visit, healthView(report, paged, rows.length));
}
