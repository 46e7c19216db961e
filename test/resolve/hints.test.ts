import { describe, expect, test } from "vitest";
import { FULL_SCOPE, NOT_FOUND_ADVICE, resolve, type Scope } from "../../src/resolve/index.js";
import { EXAMPLE } from "./example-shelf.js";
import { buildTestShelf, scopeOf } from "./shelf-fixture.js";
import type { SkipRow } from "../../src/address/index.js";
import type { HarvestedPlugin } from "../../src/harvest/index.js";
import type { Shelf } from "../../src/shelf/index.js";

function message(scope: Scope, uri: string): string {
  const answer = resolve(EXAMPLE, scope, uri);
  return answer.kind === "notFound" ? answer.message : `not a notFound: ${answer.kind}`;
}

describe("directory hints (§2.4), one row per kind of directory", () => {
  const rows = [
    { uri: "skill://grafana", tail: "It is a library: read skill://grafana/_index.md." },
    { uri: "skill://grafana/", tail: "It is a library: read skill://grafana/_index.md." },
    { uri: "skill://grafana/x/..", tail: "It is a library: read skill://grafana/_index.md." },
    { uri: "skill://docs", tail: "It is a library: read skill://docs/_files.md." },
    { uri: "skill://grafana/grafana-lgtm", tail: "It is a folder: read skill://grafana/grafana-lgtm/_index.md." },
    { uri: "skill://grafana/grafana-lgtm/", tail: "It is a folder: read skill://grafana/grafana-lgtm/_index.md." },
    { uri: "skill://mixed/my%20notes", tail: "It is a folder: read skill://mixed/my%20notes/_index.md." },
    {
      uri: "skill://grafana/grafana-lgtm/loki",
      tail: "It is a skill: read skill://grafana/grafana-lgtm/loki/SKILL.md or skill://grafana/grafana-lgtm/loki/_manifest.",
    },
    {
      uri: "skill://kit/writing/drafts/",
      tail: "It is a skill: read skill://kit/writing/drafts/SKILL.md or skill://kit/writing/drafts/_manifest.",
    },
    {
      uri: "skill://kit/writing",
      tail: "It is a skill and a folder: read skill://kit/writing/SKILL.md, skill://kit/writing/_manifest or skill://kit/writing/_index.md.",
    },
    { uri: "skill://grafana/shared", tail: "It is a directory of library files: read skill://grafana/_files.md." },
    { uri: "skill://docs/guide/deep", tail: "It is a directory of library files: read skill://docs/_files.md." },
    {
      uri: "skill://mixed/team",
      tail: "It is a folder and a directory of library files: read skill://mixed/team/_index.md or skill://mixed/_files.md.",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/references",
      tail: "It is a directory inside a skill: read skill://grafana/grafana-lgtm/loki/_manifest.",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/references/deep/",
      tail: "It is a directory inside a skill: read skill://grafana/grafana-lgtm/loki/_manifest.",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/.github",
      tail: "It is a directory inside a skill: read skill://grafana/grafana-lgtm/loki/_manifest.",
    },
    { uri: "skill://kit/writing/refs", tail: "It is a directory inside a skill: read skill://kit/writing/_manifest." },
  ];
  test.each(rows)("$uri -> $tail", ({ uri, tail }) => {
    expect(message(FULL_SCOPE, uri)).toBe(`Not found: ${uri}. ${tail}`);
  });
});

describe("no hint: advice to start from the listing, never naming _index.md", () => {
  const rows = [
    { uri: "skill://nope", why: "no such library" },
    { uri: "skill://dropped", why: "a library with nothing visible" },
    { uri: "skill://grafana/grafana-zz", why: "no such folder" },
    { uri: "skill://grafana/docs", why: "a directory only the fallback reaches" },
    { uri: "skill://grafana/grafana-lgtm/loki/conf/.secret", why: "hidden" },
    { uri: "skill://grafana/grafana-lgtm/loki/scripts/none", why: "not a directory" },
    { uri: "skill://grafana/shared/api.md/x", why: "below a file" },
    { uri: "skill://grafana/%zz", why: "malformed" },
    { uri: "file:///etc/passwd", why: "another scheme" },
  ];
  test.each(rows)("$uri ($why)", ({ uri }) => {
    const text = message(FULL_SCOPE, uri);
    expect(text).toBe(`Not found: ${uri}. ${NOT_FOUND_ADVICE}`);
    expect(text).not.toContain("_index.md");
  });
});

describe("out of scope reads exactly like never existing (URI aside)", () => {
  const lgtm = scopeOf({ plugins: ["lgtm", "mono"] });
  const kit = scopeOf({ library: "kit" });
  const rows: { scope: Scope; name: string; hidden: string; absent: string }[] = [
    { scope: lgtm, name: "lgtm", hidden: "skill://grafana/grafana-k6", absent: "skill://grafana/grafana-zz" },
    { scope: lgtm, name: "lgtm", hidden: "skill://grafana/grafana-k6/", absent: "skill://grafana/grafana-zz/" },
    { scope: lgtm, name: "lgtm", hidden: "skill://grafana/grafana-k6/k6-run", absent: "skill://grafana/grafana-zz/k6-zz" },
    { scope: lgtm, name: "lgtm", hidden: "skill://grafana/grafana-k6/_index.md", absent: "skill://grafana/grafana-zz/_index.md" },
    {
      scope: lgtm,
      name: "lgtm",
      hidden: "skill://grafana/grafana-k6/k6-run/SKILL.md",
      absent: "skill://grafana/grafana-zz/k6-zz/SKILL.md",
    },
    {
      scope: lgtm,
      name: "lgtm",
      hidden: "skill://grafana/grafana-k6/k6-run/_manifest",
      absent: "skill://grafana/grafana-zz/k6-zz/_manifest",
    },
    { scope: lgtm, name: "lgtm", hidden: "skill://grafana/overview", absent: "skill://grafana/zz" },
    { scope: lgtm, name: "lgtm", hidden: "skill://grafana/k6-notes.md", absent: "skill://grafana/zz-notes.md" },
    { scope: lgtm, name: "lgtm", hidden: "skill://docs", absent: "skill://nope" },
    { scope: lgtm, name: "lgtm", hidden: "skill://docs/guide", absent: "skill://nope/guide" },
    { scope: lgtm, name: "lgtm", hidden: "skill://kit/writing", absent: "skill://nope/writing" },
    { scope: kit, name: "kit", hidden: "skill://grafana", absent: "skill://nope" },
    { scope: kit, name: "kit", hidden: "skill://grafana/grafana-lgtm", absent: "skill://nope/grafana-lgtm" },
    { scope: kit, name: "kit", hidden: "skill://grafana/grafana-lgtm/loki/references", absent: "skill://nope/a/b/c" },
    { scope: kit, name: "kit", hidden: "skill://grafana/shared", absent: "skill://nope/shared" },
  ];
  test.each(rows)("[$name] $hidden ~ $absent", ({ scope, hidden, absent }) => {
    const a = message(scope, hidden);
    const b = message(scope, absent);
    expect(a.replace(hidden, "<uri>")).toBe(b.replace(absent, "<uri>"));
    expect(a).toBe(`Not found: ${hidden}. ${NOT_FOUND_ADVICE}`);
  });

  test("the same directories do carry hints when the scope sees them", () => {
    expect(message(FULL_SCOPE, "skill://grafana/grafana-k6")).toBe(
      "Not found: skill://grafana/grafana-k6. It is a folder: read skill://grafana/grafana-k6/_index.md.",
    );
  });
});

describe("a skill the harvest skipped is named at the address its directory gives", () => {
  // Plugins p and q of library `lib`; q lists second. Skip rows as harvest writes them: skill directories,
  // files, and the plugin root.
  const shelf = (): Shelf => {
    const base = buildTestShelf({
      plugins: [
        {
          id: "p",
          skills: [{ dir: "skills/good" }],
          skippedDirs: ["skills/broken", "skills/team/odd"],
          tree: { "skills/broken/ref.md": "r\n" },
        },
        { id: "q", skippedDirs: ["skills/broken", "skills/late", ""] },
      ],
      libraries: [{ name: "lib", plugins: ["p", "q"] }],
    });
    const skipped: Record<string, SkipRow[]> = {
      p: [
        { path: "skills/notes.md", reason: "a file row" },
        { path: "skills/broken", reason: "SKILL.md has no description" },
        { path: "skills/team/odd", reason: "SKILL.md is not valid YAML" },
      ],
      q: [
        { path: "skills/broken", reason: "q's reason comes second" },
        { path: "skills/late", reason: "SKILL.md names another skill" },
        { path: "", reason: "the plugin root is no skill" },
      ],
    };
    const plugins = new Map<string, HarvestedPlugin>(
      [...base.plugins].map(([id, plugin]) => [id, { ...plugin, skipped: skipped[id] ?? [] }]),
    );
    return { ...base, plugins };
  };
  const rows: { uri: string; scope?: Scope; tail: string }[] = [
    { uri: "skill://lib/broken", tail: "A skill at this address was skipped: SKILL.md has no description" },
    { uri: "skill://lib/broken/", tail: "A skill at this address was skipped: SKILL.md has no description" },
    { uri: "skill://lib/broken/SKILL.md", tail: "A skill at this address was skipped: SKILL.md has no description" },
    { uri: "skill://lib/broken/_manifest", tail: "A skill at this address was skipped: SKILL.md has no description" },
    { uri: "skill://lib/broken", scope: scopeOf({ plugins: ["q"] }), tail: "A skill at this address was skipped: q's reason comes second" },
    { uri: "skill://lib/team/odd/SKILL.md", tail: "A skill at this address was skipped: SKILL.md is not valid YAML" },
    { uri: "skill://lib/late/_manifest", tail: "A skill at this address was skipped: SKILL.md names another skill" },
    { uri: "skill://lib/late", scope: scopeOf({ plugins: ["p"] }), tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/broken/ref.md", tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/broken/x/SKILL.md", tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/team", tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/notes.md", tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/SKILL.md", tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/_manifest", tail: NOT_FOUND_ADVICE },
  ];
  test.each(rows)("$uri under $scope.key", ({ uri, scope, tail }) => {
    const answer = resolve(shelf(), scope ?? FULL_SCOPE, uri);
    expect(answer.kind === "notFound" ? answer.message : answer.kind).toBe(`Not found: ${uri}. ${tail}`);
  });
});

describe("a skill served at the address its name gives is named at its folder's address", () => {
  // naming: lenient serves `skills/team/Odd_Folder` (name: odd-one) at team/odd-one; the folder's address is empty.
  const shelf = buildTestShelf({
    plugins: [
      { id: "p", skills: [{ dir: "skills/team/Odd_Folder", address: "team/odd-one", files: { "notes.md": "n\n" } }] },
      { id: "q", skills: [{ dir: "skills/other" }] },
    ],
    libraries: [{ name: "lib", plugins: ["p", "q"] }],
  });
  const moved = (target: string): string =>
    `The skill in this folder is served at the address its name "odd-one" gives: read skill://lib/team/odd-one/${target}.`;
  const rows: { uri: string; scope?: Scope; tail: string }[] = [
    { uri: "skill://lib/team/Odd_Folder", tail: moved("SKILL.md") },
    { uri: "skill://lib/team/Odd_Folder/", tail: moved("SKILL.md") },
    { uri: "skill://lib/team/Odd_Folder/SKILL.md", tail: moved("SKILL.md") },
    { uri: "skill://lib/team/Odd_Folder/_manifest", tail: moved("_manifest") },
    { uri: "skill://lib/team/Odd_Folder/notes.md", tail: moved("notes.md") },
    // Out of scope, the folder reads like any unknown address.
    { uri: "skill://lib/team/Odd_Folder/SKILL.md", scope: scopeOf({ plugins: ["q"] }), tail: NOT_FOUND_ADVICE },
    { uri: "skill://lib/team/odd_folder/SKILL.md", tail: NOT_FOUND_ADVICE },
  ];
  test.each(rows)("$uri under $scope.key", ({ uri, scope, tail }) => {
    const answer = resolve(shelf, scope ?? FULL_SCOPE, uri);
    expect(answer.kind === "notFound" ? answer.message : answer.kind).toBe(`Not found: ${uri}. ${tail}`);
  });
});
