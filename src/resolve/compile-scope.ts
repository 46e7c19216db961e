// §5: a request scope (and a client's ceiling) compiled against one shelf into the set of plugins it admits.
// Naming something that does not exist — or that lies outside the ceiling, which must look the same — is
// refused with a message listing what does exist, because a typo that silently serves nothing is the worst
// failure an operator can get.
import { compileSelector, type Shelf } from "../shelf/index.js";
import { parseTagSelector, type Ceiling, type ScopeSpec } from "../config/index.js";
import type { HarvestedPlugin } from "../harvest/index.js";
import type { Scope } from "./types.js";
import { NO_SCOPE } from "./scope.js";
import { memoizeBy } from "../memo/index.js";

export type ScopeResult = { readonly ok: true; readonly scope: Scope } | { readonly ok: false; readonly message: string };

/** Distinct scopes are few; the bound only caps memory against a flood of distinct ones. */
const MAX_SCOPES = 256;

function isEmpty(spec: ScopeSpec): boolean {
  return spec.library === undefined && (spec.categories ?? []).length === 0 && (spec.tags ?? []).length === 0;
}

function formatKey(spec: ScopeSpec): string {
  const sorted = (items: readonly string[] | undefined): string[] => [...(items ?? [])].sort();
  return JSON.stringify([spec.library ?? null, sorted(spec.categories), sorted(spec.tags)]);
}

/** The grants of a ceiling: `null` when it admits everything (absent, empty, or a union holding an empty scope). */
function grantsOf(ceiling: Ceiling | null): readonly ScopeSpec[] | null {
  if (ceiling === null) return null;
  if ("anyOf" in ceiling) return ceiling.anyOf.some(isEmpty) ? null : ceiling.anyOf;
  return isEmpty(ceiling) ? null : [ceiling];
}

function formatCeilingKey(grants: readonly ScopeSpec[] | null, union: boolean): string {
  if (grants === null) return "";
  const keys = grants.map(formatKey);
  // Not a union: exactly one grant.
  return union ? `any${JSON.stringify([...new Set(keys)].sort())}` : (keys[0] as string);
}

/** How one caller sees any shelf: its scope compiled against that very shelf. A scope compiled against one shelf is
 *  never applied to another: a rebuild may have narrowed a ceiling or dropped a plugin. On a shelf where the scope
 *  is refused (what it names is gone), the caller sees nothing rather than more than it should. */
export type ScopeOn = (shelf: Shelf) => Scope;

export function scopeOn(ceiling: Ceiling | null, request: ScopeSpec): ScopeOn {
  return (shelf) => {
    const compiled = compileScope(shelf, ceiling, request);
    return compiled.ok ? compiled.scope : NO_SCOPE;
  };
}

/** Compile once per (shelf, ceiling, request); later requests of the same scope are a map hit. A union ceiling
 *  (`anyOf`) admits what any of its scopes admits, library by library. */
export function compileScope(shelf: Shelf, ceiling: Ceiling | null, request: ScopeSpec): ScopeResult {
  const grants = grantsOf(ceiling);
  if (grants === null && isEmpty(request)) return { ok: true, scope: { library: null, plugins: null, key: "*" } };
  // A union of one scope is that scope; any other union keeps its admitted plugins per library.
  const union = grants !== null && grants.length !== 1;
  return compiled(shelf, { grants, union, request, key: `${formatCeilingKey(grants, union)}|${formatKey(request)}` });
}

interface ScopeAsked {
  readonly grants: readonly ScopeSpec[] | null;
  readonly union: boolean;
  readonly request: ScopeSpec;
  readonly key: string;
}

const compiled = memoizeBy(
  MAX_SCOPES,
  (asked: ScopeAsked) => asked.key,
  (shelf: Shelf, asked): ScopeResult => buildScope(shelf, asked),
);

function listOf(items: Iterable<string>): string {
  const sorted = [...new Set(items)].sort();
  return sorted.length === 0 ? "(none)" : sorted.join(", ");
}

function buildScope(shelf: Shelf, { grants, union, request, key }: ScopeAsked): ScopeResult {
  // What exists, as far as this caller may know: the libraries its ceiling admits something of, and the
  // plugins the ceiling admits there. A library outside the ceiling must read exactly like one that never was.
  const matchers = grants?.map((grant) => ({ library: grant.library, matches: compileSelector(grant) })) ?? null;
  const admitsIn = (library: string, id: string): boolean => {
    const plugin = shelf.plugins.get(id);
    if (plugin === undefined) return false;
    return matchers === null || matchers.some((m) => (m.library === undefined || m.library === library) && m.matches(plugin.meta));
  };
  /** Library => the plugins the ceiling admits there, for every library the ceiling shows something of. */
  const granted = new Map<string, HarvestedPlugin[]>();
  for (const lib of shelf.libraries.values()) {
    const ids = lib.plugins.filter((id) => admitsIn(lib.name, id));
    if (matchers === null || ids.length > 0)
      granted.set(
        lib.name,
        ids.map((id) => shelf.plugins.get(id) as HarvestedPlugin),
      );
  }
  const libraries = [...granted.keys()];
  const ceilingPlugins = [...granted.values()].flat();
  const categories = new Set(ceilingPlugins.flatMap((plugin) => (plugin.meta.category === undefined ? [] : [plugin.meta.category])));
  const labels = new Set(ceilingPlugins.flatMap((plugin) => [...plugin.meta.tags, ...plugin.meta.keywords]));

  const library = request.library;
  if (library !== undefined) {
    if (library.includes("/")) return refuse(`library '${library}' names a folder; a scope names a whole library: ${listOf(libraries)}`);
    if (!libraries.includes(library)) return refuse(`library '${library}' does not exist; the libraries are: ${listOf(libraries)}`);
  }
  for (const category of request.categories ?? []) {
    if (!categories.has(category)) return refuse(`category '${category}' does not exist; the categories are: ${listOf(categories)}`);
  }
  for (const group of parseTagSelector(request.tags ?? [])) {
    for (const part of group) {
      if (!labels.has(part)) return refuse(`tag '${part}' does not exist; the tags are: ${listOf(labels)}`);
    }
  }

  const requestMatches = compileSelector(request);
  const byLibrary = new Map<string, ReadonlySet<string>>();
  for (const [name, plugins] of granted) {
    if (library !== undefined && library !== name) continue;
    byLibrary.set(name, new Set(plugins.filter((plugin) => requestMatches(plugin.meta)).map((plugin) => plugin.id)));
  }
  const admitted = new Set(ceilingPlugins.filter((plugin) => requestMatches(plugin.meta)).map((plugin) => plugin.id));
  // Stryker disable next-line OptionalChaining: equivalent; a ceiling that is no union has exactly one grant.
  const visibleLibrary = library ?? (union ? null : (grants?.[0]?.library ?? null));
  // Stryker disable next-line ConditionalExpression: equivalent; with a visible library named, byLibrary holds that library alone.
  const shown = (visibleLibrary === null ? libraries : [visibleLibrary]).some((name) => (byLibrary.get(name)?.size ?? 0) > 0);
  if (!shown)
    return refuse(
      `the scope ${formatScope(request)} shows nothing: no plugin of ${visibleLibrary === null ? "any library" : `library '${visibleLibrary}'`} matches it`,
    );
  return { ok: true, scope: { library: visibleLibrary, plugins: admitted, key, ...(union ? { byLibrary } : {}) } };
}

function formatScope(spec: ScopeSpec): string {
  const parts = [
    ...(spec.library === undefined ? [] : [`library=${spec.library}`]),
    ...(spec.categories ?? []).map((category) => `categories=${category}`),
    ...(spec.tags ?? []).map((tag) => `tags=${tag}`),
  ];
  return parts.length === 0 ? "(no narrowing)" : parts.join(" ");
}

function refuse(message: string): ScopeResult {
  return { ok: false, message: `Scope refused: ${message}.` };
}
