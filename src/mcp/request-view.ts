// What one request asks to see (§5.1): its scope and the listing/tool switches, from query parameters and
// headers (a header wins over the parameter of the same setting).
import type { Scope } from "../model.js";
import { FULL_SCOPE } from "../resolve/index.js";

export interface RequestView {
  readonly scope: Scope;
  /** `skills=full`: one listing row per visible skill. */
  readonly fullListing: boolean;
  /** `resources=off`: the client has no resources feature, so the resource tools are listed. */
  readonly resourceTools: boolean;
  /** `prompts=off`: the client has no prompts feature, so the prompt tools are listed. */
  readonly promptTools: boolean;
  /** Whether answers depend on who asks (a scope or a client): caches must then be private. */
  readonly personal: boolean;
}

export const DEFAULT_VIEW: RequestView = { scope: FULL_SCOPE, fullListing: false, resourceTools: false, promptTools: false, personal: false };

/** The last value of a setting: the header when present, else the query parameter. */
function setting(query: URLSearchParams, headers: Headers, param: string, header: string): string | null {
  const fromHeader = headers.get(header);
  return fromHeader !== null ? fromHeader.trim() : query.get(param);
}

export function parseRequestView(query: URLSearchParams, headers: Headers, base: RequestView = DEFAULT_VIEW): RequestView {
  const is = (param: string, header: string, value: string): boolean | null => {
    const raw = setting(query, headers, param, header);
    return raw === null ? null : raw.toLowerCase() === value;
  };
  return {
    ...base,
    fullListing: is("skills", "x-skill-listing", "full") ?? base.fullListing,
    resourceTools: is("resources", "x-mcp-resources", "off") ?? base.resourceTools,
    promptTools: is("prompts", "x-mcp-prompts", "off") ?? base.promptTools,
  };
}
