// The shapes the URI vocabulary exists to refuse or escape, each on its own: control characters, dot segments,
// empty segments and separators, in table rows and in generated segments.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { encodeSegment, formatSkillMdUri, formatSkillUri, isAddressableSegment, parseSkillUri } from "../../src/address/index.js";

describe("isAddressableSegment", () => {
  const rows = [
    { segment: "loki", addressable: true },
    { segment: "my notes.md", addressable: true },
    { segment: "...", addressable: true },
    { segment: "..a", addressable: true },
    { segment: ".env", addressable: true, why: "hidden is another rule" },
    { segment: "%2e%2e", addressable: true, why: "encoded once more, it parses back to itself" },
    { segment: "a\tb", addressable: true },
    { segment: "", addressable: false },
    { segment: ".", addressable: false },
    { segment: "..", addressable: false },
    { segment: "a/b", addressable: false },
    { segment: "/", addressable: false },
    { segment: "a\\b", addressable: false },
    { segment: "a\u0000b", addressable: false },
  ];
  test.each(rows)("$segment -> $addressable", ({ segment, addressable }) => {
    expect(isAddressableSegment(segment)).toBe(addressable);
  });

  test("agrees with parse(format(x)) = x for every one-segment list", () => {
    const chars = fc.constantFrom("a", ".", "/", "\\", "\0", "%", "\t", " ", "\u007f", "é");
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 4 }), (segment) => {
        const roundTrips =
          JSON.stringify(parseSkillUri(formatSkillUri("lib", [segment]))) === JSON.stringify({ library: "lib", segments: [segment] });
        expect(isAddressableSegment(segment)).toBe(roundTrips);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("encodeSegment: control characters take two hex digits", () => {
  const rows = [
    { segment: "\t", encoded: "%09" },
    { segment: "\u0000", encoded: "%00" },
    { segment: "a\nb", encoded: "a%0Ab" },
    { segment: "\u001f", encoded: "%1F" },
    { segment: " ", encoded: "%20" },
    { segment: "\u007f", encoded: "%7F" },
    { segment: '"<>[]^`{|}', encoded: "%22%3C%3E%5B%5D%5E%60%7B%7C%7D" },
  ];
  test.each(rows)("$encoded", ({ segment, encoded }) => {
    expect(encodeSegment(segment)).toBe(encoded);
  });
});

describe("parse(format(x)) = x with control characters and reserved characters", () => {
  // Segments drawn from a small alphabet that holds every class the encoder treats differently.
  const unit = fc.constantFrom("a", "Z", "0", ".", "%", "?", "#", " ", "\t", "\n", "\u0001", "\u001f", "\u007f", "é", "😀", "~");
  const addressable = fc.string({ unit, minLength: 1, maxLength: 6 }).filter(isAddressableSegment);

  test("every addressable segment list round-trips", () => {
    fc.assert(
      fc.property(addressable, fc.array(addressable, { maxLength: 5 }), (library, segments) => {
        expect(parseSkillUri(formatSkillUri(library, segments))).toEqual({ library, segments });
      }),
      { numRuns: 2000 },
    );
  });

  test("a published URI holds no raw control character, space or percent sign that is not an escape", () => {
    fc.assert(
      fc.property(addressable, fc.array(addressable, { maxLength: 5 }), (library, segments) => {
        const uri = formatSkillMdUri(library, segments);
        expect(uri).not.toMatch(/[\u0000-\u0020\u007f]|%(?![0-9A-F]{2})/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("skill addresses with dot, empty and separator segments never format to another address", () => {
  // formatSkillMdUri trusts its caller to pass addressable segments; these rows show what a caller that forgot the
  // check would publish, which is why the resolver filters skill addresses with isAddressableSegment.
  const rows = [
    { address: ["a", ".."], parsed: ["SKILL.md"] },
    { address: ["a", "."], parsed: ["a", "SKILL.md"] },
    { address: ["a", ""], parsed: ["a", "SKILL.md"] },
    { address: ["..", "x"], parsed: ["x", "SKILL.md"] },
  ];
  test.each(rows)("$address", ({ address, parsed }) => {
    expect(address.every(isAddressableSegment)).toBe(false);
    expect(parseSkillUri(formatSkillMdUri("lib", address))).toEqual({ library: "lib", segments: parsed });
  });

  test("a separator inside a segment is refused on the way back", () => {
    expect(isAddressableSegment("a\\b")).toBe(false);
    expect(parseSkillUri(formatSkillMdUri("lib", ["a\\b"]))).toBeNull();
  });
});
