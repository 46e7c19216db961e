// Browsing the shelf: the libraries, a library's folders, a skill, a file and its download. Each reads through the
// viewer's scope exactly as an MCP request does (the resolver's views, `ShelfAccess.read`), so what lies outside it
// is never shown, counted or hinted: it answers the same 404 as what does not exist.
import { compareCodeUnits, formatSkillMdUri, formatSkillUri } from "../address/index.js";
import { type LibraryView, libraryView, manifestOf, type ReadOutcome, visiblePrompts } from "../resolve/index.js";
import { pageOf } from "./layout.js";
import { DOWNLOAD_POLICY } from "./security.js";
import { badRequest, libraryParam, notFound, type PageCall, segmentsParam, send, type Visit } from "./visit.js";
import { fileView } from "./views/file.js";
import { type FolderRow, folderView, type LibraryRow, librariesView } from "./views/library.js";
import { PAGE_ROWS } from "./views/parts.js";
import { skillView } from "./views/skill.js";

/** A library the viewer sees anything of: one of its served plugins is admitted. */
export function shownLibrary(visit: Visit, name: string): LibraryView | null {
  const lib = libraryView(visit.view, name);
  return lib !== null && lib.plugins.length > 0 ? lib : null;
}

export function libraries(call: PageCall): void {
  const { req, visit } = call;
  const shown: LibraryRow[] = [];
  for (const name of [...visit.shelf.libraries.keys()].sort(compareCodeUnits)) {
    const lib = shownLibrary(visit, name);
    if (lib !== null) shown.push({ name, skills: lib.skills.size, description: lib.library.description });
  }
  const paged = pageOf(shown, req.query["page"], PAGE_ROWS);
  if (!paged.ok) return badRequest(call, paged.message);
  send(call.res, 200, visit, librariesView({ libraries: shown, paged, viewer: visit.viewer?.name ?? null }));
}

export function folder(call: PageCall): void {
  const { req, visit } = call;
  const library = libraryParam(req);
  const segments = segmentsParam(req);
  const lib = shownLibrary(visit, library);
  const key = segments.join("/");
  const node = lib?.folders.get(key);
  if (lib === null || (node === undefined && key !== "")) return notFound(call);
  const rows: FolderRow[] = [];
  for (const child of [...(node?.folders ?? [])].sort(compareCodeUnits)) {
    rows.push({ kind: "folder", name: child, count: lib.folders.get(key === "" ? child : `${key}/${child}`)?.count ?? 0 });
  }
  const skills = [...(node?.skills ?? [])].sort((a, b) => compareCodeUnits(a.address.join("/"), b.address.join("/")));
  for (const skill of skills) rows.push({ kind: "skill", skill });
  if (key === "") for (const file of lib.files) rows.push({ kind: "file", path: file.path, size: file.file.size });
  const paged = pageOf(rows, req.query["page"], PAGE_ROWS);
  if (!paged.ok) return badRequest(call, paged.message);
  const prompts = key === "" && paged.page === 1 ? visiblePrompts(visit.shelf, visit.view.scope).filter((p) => p.library === library) : [];
  const view = folderView({
    library,
    segments,
    description: lib.library.description,
    skills: node?.count ?? 0,
    libraryFiles: lib.files.length,
    total: rows.length,
    paged,
    prompts,
  });
  send(call.res, 200, visit, view);
}

export async function skill(call: PageCall): Promise<void> {
  const { req, visit } = call;
  const library = libraryParam(req);
  const segments = segmentsParam(req);
  const lib = shownLibrary(visit, library);
  const found = lib?.skills.get(segments.join("/"));
  if (lib === null || found === undefined) return notFound(call);
  const skillMd = formatSkillMdUri(library, found.address);
  const text = await call.context.deps.shelf.read(skillMd, visit.scopeOn);
  if (!text.ok || !("text" in text)) return notFound(call);
  const files = manifestOf(lib, found).files;
  const paged = pageOf(files, req.query["page"], PAGE_ROWS);
  if (!paged.ok) return badRequest(call, paged.message);
  const prompts = visiblePrompts(visit.shelf, visit.view.scope).filter((p) => p.library === library && p.plugin === found.plugin);
  const below = lib.folders.get(found.address.join("/"))?.count;
  send(call.res, 200, visit, skillView({ library, skill: found, skillMd, text: text.text, files, paged, below, prompts }));
}

/** The file the page's address names, read through the viewer's scope; null when they see none there. */
async function readFile(
  call: PageCall,
): Promise<{ library: string; segments: string[]; outcome: Extract<ReadOutcome, { ok: true }> } | null> {
  const library = libraryParam(call.req);
  const segments = segmentsParam(call.req);
  if (shownLibrary(call.visit, library) === null) return null;
  const outcome = await call.context.deps.shelf.read(formatSkillUri(library, segments), call.visit.scopeOn);
  return outcome.ok ? { library, segments, outcome } : null;
}

export async function file(call: PageCall): Promise<void> {
  const read = await readFile(call);
  if (read === null) return notFound(call);
  const { library, segments, outcome } = read;
  const content = "text" in outcome ? { text: outcome.text } : { bytes: Buffer.from(outcome.blob, "base64").length };
  send(call.res, 200, call.visit, fileView({ library, segments, uri: outcome.uri, mimeType: outcome.mimeType, content }));
}

export async function raw(call: PageCall): Promise<void> {
  const read = await readFile(call);
  if (read === null) return notFound(call);
  const { res } = call;
  const { segments, outcome } = read;
  const bytes = "text" in outcome ? Buffer.from(outcome.text, "utf8") : Buffer.from(outcome.blob, "base64");
  res.attachment(segments[segments.length - 1] ?? "file");
  res.set("Content-Security-Policy", DOWNLOAD_POLICY);
  res.type("text" in outcome ? `${outcome.mimeType}; charset=utf-8` : outcome.mimeType).send(bytes);
}
