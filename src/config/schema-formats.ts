// The formats the config shares between its parts: names, secrets, durations, sizes, addresses, globs, tags and
// versions, as definitions of CONFIG_SCHEMA (schema.ts spreads them into its `$defs`, keeping their order).

/** Library, plugin, source and client names. */
const NAME_PATTERN = "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$";
/** A plugin named by a library: `<plugin>` or `<entry>@<library>` (a marketplace entry). */
const PLUGIN_REF_PATTERN = "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(@[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)?$";
/** An environment variable name. */
export const ENV_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
/** `500ms`, `60s`, `5m`, `1h`, `1d` (a plain number is milliseconds). */
const DURATION_PATTERN = "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$";
/** `8MiB`, `512KiB`, `1GB`, `1024` (a plain number is bytes). */
const SIZE_PATTERN = "^[0-9]+(\\.[0-9]+)? ?(B|kB|KB|KiB|MB|MiB|GB|GiB)?$";
/** A tag or keyword: no comma (selectors read commas as all-of), no surrounding whitespace. */
const TAG_PATTERN = "^[^,\\s]([^,]*[^,\\s])?$";
/** A tag selector item: comma-separated tags, all of which a plugin must carry. */
const TAG_SELECTOR_PATTERN = "^ *[^,\\s]([^,]*[^,\\s])? *(, *[^,\\s]([^,]*[^,\\s])? *)*$";

const NON_EMPTY_STRING = { type: "string", minLength: 1 } as const;

/** A list of `items` (non-empty strings when not given). Typed by its argument, so the types derived from the schema
 *  (raw.ts) see what each list holds. */
type ListOf<I> = { readonly type: "array"; readonly description: string; readonly items: I };
export function strings(description: string): ListOf<typeof NON_EMPTY_STRING>;
export function strings<const I extends object>(description: string, items: I): ListOf<I>;
export function strings(description: string, items: object = NON_EMPTY_STRING): ListOf<object> {
  return { type: "array", description, items };
}

export const FORMAT_DEFS = {
  name: { type: "string", pattern: NAME_PATTERN, description: "1-64 characters of a-z, 0-9 and '-', no '-' first or last." },
  pluginRef: { type: "string", pattern: PLUGIN_REF_PATTERN, description: "A plugin name, or <entry>@<library>." },
  secretRef: {
    type: "object",
    description: "A secret read from the environment when used; never written in the file.",
    additionalProperties: false,
    required: ["env"],
    properties: { env: { type: "string", pattern: ENV_PATTERN } },
  },
  duration: {
    type: ["string", "integer"],
    description: "A number of milliseconds, or a number with a unit: ms, s, m, h, d (500ms, 60s, 1h).",
    pattern: DURATION_PATTERN,
    minimum: 0,
  },
  size: {
    type: ["string", "integer"],
    description: "A number of bytes, or a number with a unit: B, KiB, MiB, GiB (1024-based), kB, MB, GB (1000-based).",
    pattern: SIZE_PATTERN,
    minimum: 1,
  },
  address: {
    type: "string",
    minLength: 1,
    description: "<source>://<path>[//<subdir>][?ref=<ref>], file:///abs/path, or a local path starting with ./, ../ or /.",
  },
  glob: { type: "string", minLength: 1, description: "Relative to the plugin root; no '..' segment." },
  tag: { type: "string", pattern: TAG_PATTERN },
  tagSelector: { type: "string", pattern: TAG_SELECTOR_PATTERN, description: "All of its comma-separated tags." },
  version: { type: "string", minLength: 1 },
} as const;
