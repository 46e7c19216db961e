// The names plugin clients install by: a plugin's name and a marketplace's, with every character Claude Code refuses
// in a plugin id (`plugin@marketplace`) turned into `-`.

const NAME_REFUSED = /[^A-Za-z0-9._-]/g;
const MAX_NAME = 128;

/** The marketplace of a caller's whole scope. */
export const SCOPE_MARKETPLACE = "skillshelf";

/** `review@acme` => `review-acme`; a name starting with `.`, `_` or `-` gets a `p` in front. */
export function pluginName(id: string): string {
  const name = id.replace(NAME_REFUSED, "-");
  return (/^[A-Za-z0-9]/.test(name) ? name : `p${name}`).slice(0, MAX_NAME);
}

/** The marketplace of one library: `skillshelf-<library>`. */
export function libraryMarketplaceName(library: string): string {
  return `${SCOPE_MARKETPLACE}-${library.replace(NAME_REFUSED, "-")}`.slice(0, MAX_NAME);
}
