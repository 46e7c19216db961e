// Scope helpers (§5.1). Compiling a scope from a request or a client belongs elsewhere; the resolver only
// honours the two fields everywhere: one library or all, and the admitted plugin ids or all.
import type { Scope } from "./types.js";

/** Sees the whole shelf: the operator's view, the citation audit, and a server without clients. */
export const FULL_SCOPE: Scope = Object.freeze({ library: null, plugins: null, key: "*" });

/** Sees nothing: no library is named this (names never hold a NUL) and no plugin is admitted. */
export const NO_SCOPE: Scope = Object.freeze({ library: "\u0000", plugins: new Set<string>(), key: "\u0000none" });

/** The whole shelf, whichever shelf it is. */
export const FULL_SCOPE_ON = (): Scope => FULL_SCOPE;

export function isLibraryVisible(scope: Scope, library: string): boolean {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: defence in depth; isVisible refuses a library byLibrary lacks too.
  if (scope.byLibrary !== undefined && !scope.byLibrary.has(library)) return false;
  return scope.library === null || scope.library === library;
}

export function isPluginAdmitted(scope: Scope, plugin: string): boolean {
  return scope.plugins === null || scope.plugins.has(plugin);
}

/** A skill, a library file or a fallback root of `plugin` in `library` is visible iff both are admitted. */
export function isVisible(scope: Scope, library: string, plugin: string): boolean {
  if (!isLibraryVisible(scope, library)) return false;
  // Stryker disable next-line OptionalChaining,BooleanLiteral: equivalent; isLibraryVisible has required the library in byLibrary.
  return scope.byLibrary === undefined ? isPluginAdmitted(scope, plugin) : (scope.byLibrary.get(library)?.has(plugin) ?? false);
}
