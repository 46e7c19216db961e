// fast-check arbitraries for hostile skill:// URIs: dot segments, percent and double-percent escapes, encoded
// slashes, backslashes, NUL, Unicode dots and overlong UTF-8, empty segments, scheme and host case, queries and
// fragments, very long URIs; mixed with the names the hostile fixture really holds, so many of them come close.
import fc from "fast-check";

/** Names in the fixture (served, hidden, symlinked, outside) and the shelf's own documents. */
const NAMES = [
  "lib",
  "other",
  "LIB",
  "alpha",
  "gamma",
  "beta",
  "SKILL.md",
  "skill.md",
  "notes.md",
  "private.md",
  ".secret.md",
  ".env",
  ".git",
  "config",
  "link-out.md",
  "link-dir-out",
  "link-sibling",
  "link-sibling.md",
  "rel-sibling",
  "secret.txt",
  "secret-in-repo.md",
  "do..ts",
  "x.md",
  "...",
  "y.md",
  "..data",
  "z.md",
  "%2e%2e",
  "w.md",
  "_index.md",
  "_manifest",
  "_files.md",
  "skills",
  "plugin-a",
  "plugin-b",
  "repo",
  "pa",
  "pb",
];

/** Ways to say "parent", "here", "slash" and "nothing" that a naive decoder or normaliser might honour. */
const TRICKS = [
  "..",
  ".",
  "",
  "%2e%2e",
  "%2E%2E",
  "%2e.",
  ".%2e",
  "%252e%252e",
  "%25252e%25252e",
  "%2f",
  "%2F",
  "%252f",
  "..%2f..",
  "..%5c..",
  "%5c",
  "\\",
  "..\\..",
  "%00",
  "\u0000",
  "alpha%00.md",
  "\u2024\u2024", // one-dot leaders
  "\uff0e\uff0e", // fullwidth full stops
  "\u3002\u3002", // ideographic full stops
  "%c0%ae%c0%ae", // overlong UTF-8 for '.'
  "%e0%80%ae%e0%80%ae",
  "%c0%af", // overlong '/'
  "%e2%80%a4%e2%80%a4",
  "%",
  "%zz",
  "%2",
  "~",
  "*",
  "**",
  "?",
  "#",
  "con",
  "SKILL.md%20",
  "SKILL.md.",
  "SKILL.md::$DATA",
];

const SCHEMES = [
  "skill://",
  "SKILL://",
  "Skill://",
  "skill:/",
  "skill:",
  "skill:///",
  "skill:////",
  "file://",
  "",
  "//",
  "http://",
  "skill%3a//",
];
const SUFFIXES = ["", "", "", "?", "?x=1", "?../../secret.txt", "#frag", "#../secret.txt", "/", "//", "%23x", "%3fx"];
const SEPARATORS = ["/", "/", "/", "/", "//", "\\", "%2f", "%5c"];

const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 4, arbitrary: fc.constantFrom(...TRICKS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
);

/** Addresses the caller may read, to mutate into near misses. */
const SERVED = [
  "skill://lib/alpha/SKILL.md",
  "skill://lib/alpha/notes.md",
  "skill://lib/alpha/do..ts/x.md",
  "skill://lib/alpha/_manifest",
  "skill://lib/gamma/SKILL.md",
  "skill://lib/_index.md",
];

/** One percent-escape of `char`, single or double: `.` => `%2e` or `%252e`. */
const escapeChar = (char: string, double: boolean): string => {
  const once = [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  return double ? once.replace(/%/g, "%25") : once;
};

/** A served address with one change: a trick segment spliced in, one character escaped, the case of the scheme
 *  or library changed, a query or fragment added; or left as it is. */
const nearMiss: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...SERVED),
    fc.nat(),
    fc.constantFrom(...TRICKS, ...NAMES),
    fc.integer({ min: 0, max: 5 }),
    fc.boolean(),
    fc.constantFrom(...SUFFIXES),
  )
  .map(([uri, at, trick, change, double, suffix]) => {
    const segments = uri.slice("skill://".length).split("/");
    const i = 1 + (at % segments.length);
    switch (change) {
      case 0:
        return uri;
      case 1:
        return `skill://${[...segments.slice(0, i), trick, ...segments.slice(i)].join("/")}`;
      case 2: {
        const flat = segments.join("/");
        const j = at % flat.length;
        return `skill://${flat.slice(0, j)}${escapeChar(flat[j] as string, double)}${flat.slice(j + 1)}`;
      }
      case 3:
        return at % 2 === 0 ? uri.toUpperCase() : uri.replace("skill://lib", "SKILL://Lib");
      case 4:
        return `skill://${[...segments.slice(0, i), trick, "..", ...segments.slice(i)].join("/")}`;
      default:
        return `${uri}${suffix}`;
    }
  });

/** A skill:// URI built from pieces aimed at the fixture, sometimes very long. */
const composed: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...SCHEMES),
    fc.array(fc.tuple(segment, fc.constantFrom(...SEPARATORS)), { minLength: 0, maxLength: 9 }),
    fc.constantFrom(...SUFFIXES),
    fc.oneof({ weight: 30, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }) }),
  )
  .map(([scheme, parts, suffix, repeat]) => {
    let body = parts.map(([name, sep], i) => (i === 0 ? name : sep + name)).join("");
    // A very long URI: the same climb repeated, the kind of input that finds quadratic normalisers.
    if (repeat > 0) body = `lib/${"../".repeat(repeat)}${body}`;
    return `${scheme}${body}${suffix}`;
  });

/** Hostile URIs: half near misses of served addresses, half composed from names and tricks. */
export const hostileUri: fc.Arbitrary<string> = fc.oneof(nearMiss, composed);

/** Sample `count` URIs reproducibly from `seed`. */
export function sampleHostileUris(count: number, seed: number): string[] {
  return fc.sample(hostileUri, { numRuns: count, seed });
}
