// What one request asks to see (§5.1): its scope and the listing/tool switches, from query parameters and
// headers (a header wins over the parameter of the same setting; repeated parameters are lists).
import { FULL_SCOPE_ON, type ScopeOn } from "../resolve/index.js";
import type { ScopeSpec } from "../config/index.js";

export interface RequestView {
  /** The caller's scope on any shelf: compiled against the shelf each step of a request reads. */
  readonly scopeOn: ScopeOn;
  /** `skills=full`: one listing row per visible skill. */
  readonly fullListing: boolean;
  /** `resources=off`: the client has no resources feature, so the resource tools are listed. */
  readonly resourceTools: boolean;
  /** `prompts=off`: the client has no prompts feature, so the prompt tools are listed. */
  readonly promptTools: boolean;
  /** Whether answers depend on who asks (a scope or a client): caches must then be private. */
  readonly personal: boolean;
  /** Told of each use served (a read answered, a skill got, a search run): usage counting, when it is on. */
  readonly onUse?: (use: Use) => void;
}

/** One use of the shelf, as served: a read of `uri` (answered), a search and the skills it found (their SKILL.md
 *  URIs, in order), or a prompt rendered (its library and name). */
export type Use =
  | { readonly kind: "read"; readonly uri: string; readonly surface: string }
  | { readonly kind: "search"; readonly query: string; readonly found: readonly string[]; readonly surface: string }
  | { readonly kind: "prompt"; readonly library: string; readonly name: string; readonly surface: string };

export const DEFAULT_VIEW: RequestView = {
  scopeOn: FULL_SCOPE_ON,
  fullListing: false,
  resourceTools: false,
  promptTools: false,
  personal: false,
};

export interface RequestSettings {
  readonly scope: ScopeSpec;
  readonly fullListing: boolean;
  readonly resourceTools: boolean;
  readonly promptTools: boolean;
}

function trimmed(values: readonly string[]): string[] {
  return values.map((value) => value.trim()).filter((value) => value !== "");
}

/** `X-Skill-Categories: a, b` => `["a", "b"]`; tags items are separated by `;` in a header, since a comma
 *  inside one item means all-of: `X-Skill-Tags: a,b; c` => `["a,b", "c"]`. Repeated `X-Skill-Tags` lines are
 *  items too, like repeated query parameters; HTTP folds them into one value, so the caller passes the lines
 *  as received (`tagLines`) when it has them. */
export function parseRequestSettings(query: URLSearchParams, headers: Headers, tagLines: readonly string[] = []): RequestSettings {
  const header = (name: string): string | null => headers.get(name);
  const library = header("x-skill-library")?.trim() ?? query.get("library") ?? undefined;
  const categoriesHeader = header("x-skill-categories");
  const categories = categoriesHeader === null ? trimmed(query.getAll("categories")) : trimmed(categoriesHeader.split(","));
  const folded = header("x-skill-tags");
  const tagsHeader = tagLines.length > 0 ? tagLines : folded === null ? [] : [folded];
  const tags = tagsHeader.length === 0 ? trimmed(query.getAll("tags")) : trimmed(tagsHeader.flatMap((line) => line.split(";")));
  const is = (param: string, name: string, value: string): boolean => {
    const raw = header(name) ?? query.get(param);
    return raw !== null && raw.trim().toLowerCase() === value;
  };
  return {
    scope: { ...(library === undefined ? {} : { library }), categories, tags },
    fullListing: is("skills", "x-skill-listing", "full"),
    resourceTools: is("resources", "x-mcp-resources", "off"),
    promptTools: is("prompts", "x-mcp-prompts", "off"),
  };
}
