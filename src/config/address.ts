// The plugin-address grammar (§8): `<source>://<path>[//<subdir>][?ref=<ref>]`, `file:///abs/path`, or a local
// path starting with `./`, `../` or `/`. Parsing is total: every input gets an address or the rule it broke.
// Rules never echo the address: it may hold an absolute path the operator would not want in a message.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listWords, SOURCE_KINDS } from "./source-kinds.js";
import type { PluginAddress, SourceConfig } from "./types.js";

/** Declared sources by name, with their kind (the kind's rules say whether `?ref=` is taken: git sources only). */
export type SourceKinds = ReadonlyMap<string, SourceConfig["kind"]>;

export type AddressResult = { readonly ok: true; readonly address: PluginAddress } | { readonly ok: false; readonly rule: string };

export const ADDRESS_GRAMMAR =
  "an address is <source>://<path>[//<subdir>][?ref=<ref>], file:///absolute/path, or a local path starting with ./, ../ or /";

const SOURCE_NAME = /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const SCHEME = /^([^:/?#]*):\/\//;
const CONTROL = /[\u0000-\u001f\u007f]/;
const REF_CHARS = /^[A-Za-z0-9._+@/-]+$/;

const fail = (rule: string) => ({ ok: false, rule }) as const;

/** `gitlab://team/notes//ops?ref=main` => {kind: "source", source: "gitlab", path: "team/notes", subdir: "ops", ref: "main"};
 *  `./kit` => {kind: "local", abs: <baseDir>/kit}. `baseDir` is the config file's directory (absolute). */
export function parsePluginAddress(written: string, sources: SourceKinds, baseDir: string): AddressResult {
  if (written === "") return fail("must not be empty; " + ADDRESS_GRAMMAR);
  if (CONTROL.test(written)) return fail("must not contain control characters");
  if (written.startsWith("file:")) return parseFileUrl(written);
  if (isLocalPath(written)) return { ok: true, address: { kind: "local", abs: path.resolve(baseDir, written), written } };
  const scheme = SCHEME.exec(written);
  if (scheme === null) return fail("is not an address; " + ADDRESS_GRAMMAR);
  // Stryker disable next-line StringLiteral: equivalent; the group always takes part in a match, so `?? ""` never applies.
  const source = scheme[1] ?? "";
  if (!SOURCE_NAME.test(source)) return fail("must start with the name of a declared source before ://; " + ADDRESS_GRAMMAR);
  return parseSourceAddress(written, source, written.slice(scheme[0].length), sources);
}

/** `./a`, `../a`, `/srv/a`, and `.` / `..` themselves. */
function isLocalPath(written: string): boolean {
  return written === "." || written === ".." || /^(\.{1,2})?\//.test(written);
}

function parseFileUrl(written: string): AddressResult {
  // `file://host/x` names another machine and `file:x` is relative: neither is a folder we can read.
  if (!written.startsWith("file:///")) return fail("a file: address must be absolute, as file:///path");
  if (/[?#]/.test(written)) return fail("a file:// address takes no query (?) or fragment (#)");
  try {
    return { ok: true, address: { kind: "local", abs: fileURLToPath(written), written } };
  } catch {
    return fail("is not a valid file:// URL (a percent escape may encode '/' or be malformed)");
  }
}

function parseSourceAddress(written: string, source: string, rest: string, sources: SourceKinds): AddressResult {
  if (rest.includes("#")) return fail("an address takes no fragment (#)");
  const q = rest.indexOf("?");
  const body = q === -1 ? rest : rest.slice(0, q);
  let ref: string | undefined;
  if (q !== -1) {
    const parsed = parseQuery(rest.slice(q + 1));
    if (!parsed.ok) return parsed;
    ref = parsed.ref;
  }
  const split = body.indexOf("//");
  const repoPath = split === -1 ? body : body.slice(0, split);
  const subdir = split === -1 ? "" : body.slice(split + 2);
  if (split !== -1 && subdir === "") return fail("a '//' must be followed by a subdirectory");
  const bad = checkSegments(repoPath, "path") ?? checkSegments(subdir, "subdirectory");
  if (bad !== undefined) return fail(bad);

  const kind = sources.get(source);
  if (kind === undefined) return fail(`names source '${source}', which is not declared; ${listSources(sources)}`);
  const rules = SOURCE_KINDS.get(kind);
  const word = rules?.word ?? kind;
  if (rules?.names !== undefined && repoPath === "")
    return fail(`a ${word} address names ${rules.names.what}: ${source}://${rules.names.example}`);
  // Kinds without refs (file, WebDAV): a pinned ref there would be silently ignored.
  if (ref !== undefined && rules?.refs !== true) return fail(`?ref= needs a ${refWords()} source, and '${source}' is a ${word} source`);
  const address: PluginAddress =
    ref === undefined
      ? { kind: "source", source, path: repoPath, subdir, written }
      : { kind: "source", source, path: repoPath, subdir, ref, written };
  return { ok: true, address };
}

/** `ref=main` => "main"; anything else is the rule it broke. */
function parseQuery(query: string): { readonly ok: true; readonly ref: string } | { readonly ok: false; readonly rule: string } {
  let ref: string | undefined;
  for (const param of query.split("&")) {
    const eq = param.indexOf("=");
    if (eq === -1 || param.slice(0, eq) !== "ref") return fail("the only query parameter is ref, as ?ref=<commit, branch or tag>");
    if (ref !== undefined) return fail("ref is given twice");
    ref = param.slice(eq + 1);
  }
  // Stryker disable next-line StringLiteral: equivalent; split() yields at least one parameter, so ref is always set here.
  const value = ref ?? "";
  const bad = checkRef(value);
  return bad === undefined ? { ok: true, ref: value } : fail(bad);
}

function checkRef(ref: string): string | undefined {
  if (ref === "") return "ref must not be empty";
  // A leading '-' would reach `git` as an option; the rest follows git-check-ref-format.
  if (
    !REF_CHARS.test(ref) ||
    ref.startsWith("-") ||
    ref.startsWith("/") ||
    ref.endsWith("/") ||
    ref.endsWith(".") ||
    ref.endsWith(".lock") ||
    ref.includes("..") ||
    ref.includes("//") ||
    // Stryker disable next-line all: equivalent while REF_CHARS refuses '{'; kept so git-check-ref-format's list stays whole.
    ref.includes("@{")
  ) {
    return "ref must be a commit, branch or tag name: letters, digits and . _ + @ / -, not starting with - or /, without '..'";
  }
  return undefined;
}

/** Segments must be plain names: no `.`/`..` (an address never climbs out of its source), no empty segment. */
function checkSegments(value: string, what: "path" | "subdirectory"): string | undefined {
  if (value === "") return undefined;
  if (value.includes("\\")) return `the ${what} must not contain '\\'`;
  // Percent escapes are refused rather than decoded, so `%2e%2e` can never become `..` further down.
  if (value.includes("%")) return `the ${what} must not contain percent escapes (%)`;
  const segments = value.split("/");
  if (segments.some((s) => s === "")) return `the ${what} must not have an empty segment (a leading or trailing '/', or '///')`;
  if (segments.some((s) => s === "." || s === "..")) return `the ${what} must not contain '.' or '..' segments`;
  return undefined;
}

/** The kinds that take `?ref=`, as a message names them: `git`. */
function refWords(): string {
  return listWords(
    SOURCE_KINDS.all()
      .filter((rules) => rules.refs)
      .map((rules) => rules.word),
  );
}

function listSources(sources: SourceKinds): string {
  return sources.size === 0 ? "no sources are declared" : `the sources are: ${[...sources.keys()].join(", ")}`;
}
