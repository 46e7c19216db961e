// Tag selectors: a list of items, any of which may match; each item is all of its comma-separated tags. Written as
// strings in the config, headers and query parameters, parsed here and nowhere else.

/** One item: all of these tags. */
export type TagGroup = readonly string[];

/** `"runbooks, oncall"` => `["runbooks", "oncall"]`; empty parts are dropped. */
export function parseTagItem(item: string): TagGroup {
  return item
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/** `["a,b", "c"]` => `[["a", "b"], ["c"]]`. */
export function parseTagSelector(items: readonly string[]): readonly TagGroup[] {
  return items.map(parseTagItem);
}

/** `"runbooks, oncall"` => `"runbooks,oncall"`: the item as the config holds it. */
export function normaliseTagItem(item: string): string {
  return item
    .split(",")
    .map((part) => part.trim())
    .join(",");
}
