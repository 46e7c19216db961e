// Who may read what: static clients (one token, one client), ceilings whose library is declared, and the grants of
// signed-in users (a scope, or `libraries` standing for one scope per library).
import type { RawClient, RawGrant, RawLibrary, RawScope } from "./raw.js";
import { checkUnique, type Report, type Where } from "./report.js";
import { RULE } from "./rules.js";
import { normaliseTagItem } from "./tags.js";
import type { ClientConfig, ScopeSpec } from "./types.js";

/** The library names a ceiling may name. */
export type LibraryNames = ReadonlySet<string>;

export const libraryNamesOf = (libraries: readonly RawLibrary[]): LibraryNames => new Set(libraries.map((l) => l.name));

export function buildClients(raw: readonly RawClient[], libraries: LibraryNames, report: Report): ClientConfig[] {
  checkUnique(raw, "clients", "client", report);
  const tokenOwner = new Map<string, string>();
  return raw.map((c, i) => {
    const scope = buildScope(c.scope, libraries, ["clients", i, "scope"], report);
    // One token must identify one client, or a ceiling would depend on which client matched first.
    const owner = tokenOwner.get(c.token.env);
    if (owner !== undefined) report(["clients", i, "token", "env"], RULE.sharedToken(owner));
    else tokenOwner.set(c.token.env, c.name);
    return { name: c.name, token: { env: c.token.env }, scope, admin: c.admin ?? false };
  });
}

/** A ceiling (a client's, or anonymous callers'): its library must be declared. */
export function buildScope(written: RawScope | undefined, libraries: LibraryNames, at: Where, report: Report): ScopeSpec {
  const library = written?.library;
  if (library !== undefined && !libraries.has(library)) report([...at, "library"], RULE.noLibrary(library, libraries));
  return {
    ...(library === undefined ? {} : { library }),
    ...(written?.categories === undefined ? {} : { categories: written.categories }),
    ...(written?.tags === undefined ? {} : { tags: written.tags.map(normaliseTagItem) }),
  };
}

/** A grant: a scope, or `libraries` standing for one scope per library (the rest of the keys shared). */
export function buildGrant(g: RawGrant, libraryNames: LibraryNames, at: Where, report: Report): ScopeSpec[] {
  if (g.library !== undefined && g.libraries !== undefined) {
    report(at, RULE.libraryOrLibraries);
    // Stryker disable next-line ArrayDeclaration: equivalent; the problem is reported, and a config with problems is never used.
    return [];
  }
  const { libraries, ...rest } = g;
  const shared = buildScope(rest, libraryNames, at, report);
  if (libraries === undefined) return [shared];
  if (libraries.length === 0) report([...at, "libraries"], RULE.noGrantedLibrary);
  for (const [j, library] of libraries.entries()) {
    if (!libraryNames.has(library)) report([...at, "libraries", j], RULE.noLibrary(library, libraryNames));
  }
  return libraries.map((library) => ({ ...shared, library }));
}
