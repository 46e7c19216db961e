import { describe, expect, test } from "vitest";
import { type Answer, FULL_SCOPE, resolve } from "../../src/resolve/index.js";
import { EXAMPLE } from "./example-shelf.js";
import { scopeOf } from "./shelf-fixture.js";

/** One line per answer: which bytes (by fixture `abs`), which document, or not found. */
function summary(answer: Answer): string {
  switch (answer.kind) {
    case "file":
      return `file ${answer.file.disk.abs}`;
    case "fallback":
      return `fallback ${answer.disk.abs}`;
    case "document":
      return answer.mimeType === "application/json"
        ? `manifest ${(JSON.parse(answer.text) as { skill: string }).skill}`
        : `document ${answer.text.slice(0, answer.text.indexOf("\n"))}`;
    case "notFound":
      return "notFound";
  }
}

interface Row {
  readonly uri: string;
  readonly expect: string;
  readonly why?: string;
}

describe("skill files (§2.2 step 1)", () => {
  const rows: Row[] = [
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", expect: "file fixture:lgtm/skills/grafana-lgtm/loki/SKILL.md" },
    {
      uri: "skill://grafana/grafana-lgtm/loki/references/logql.md",
      expect: "file fixture:lgtm/skills/grafana-lgtm/loki/references/logql.md",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/references/deep/more.md",
      expect: "file fixture:lgtm/skills/grafana-lgtm/loki/references/deep/more.md",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/.github/notes.md",
      expect: "file fixture:lgtm/skills/grafana-lgtm/loki/.github/notes.md",
      why: ".github is not hidden",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/_index.md",
      expect: "file fixture:lgtm/skills/grafana-lgtm/loki/_index.md",
      why: "no folder here, so the skill's own file",
    },
    { uri: "skill://grafana/grafana-lgtm/loki/../tempo/SKILL.md", expect: "file fixture:lgtm/skills/grafana-lgtm/tempo/SKILL.md" },
    { uri: "skill://grafana/grafana-lgtm/loki/%2e%2e/tempo/SKILL.md", expect: "file fixture:lgtm/skills/grafana-lgtm/tempo/SKILL.md" },
    { uri: "skill://grafana//grafana-lgtm///loki/./SKILL.md", expect: "file fixture:lgtm/skills/grafana-lgtm/loki/SKILL.md" },
    { uri: "skill://grafana/grafana-lgtm/loki/_manifest", expect: "manifest grafana/grafana-lgtm/loki" },
    { uri: "skill://kit/writing/SKILL.md", expect: "file fixture:kit/skills/writing/SKILL.md" },
    { uri: "skill://kit/writing/refs/style.md", expect: "file fixture:kit/skills/writing/refs/style.md" },
    { uri: "skill://kit/writing/drafts/SKILL.md", expect: "file fixture:kit/skills/writing/drafts/SKILL.md" },
    { uri: "skill://kit/writing/drafts/_manifest", expect: "manifest kit/writing/drafts", why: "the longest skill prefix wins" },
    { uri: "skill://kit/writing/_manifest", expect: "manifest kit/writing" },
    { uri: "skill://grafana/grafana-lgtm/loki/nothing.md", expect: "notFound" },
    { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md/x", expect: "notFound" },
    { uri: "skill://grafana/grafana-lgtm/loki/references", expect: "notFound", why: "a directory" },
    { uri: "skill://grafana/grafana-lgtm/loki", expect: "notFound", why: "the skill's directory" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: expected }) => {
    expect(summary(resolve(EXAMPLE, FULL_SCOPE, uri))).toBe(expected);
  });

  test("a file answer carries its ServedFile's type and the URI as sent", () => {
    const uri = "skill://grafana/grafana-lgtm/loki/./scripts/q.py";
    const answer = resolve(EXAMPLE, FULL_SCOPE, uri);
    expect(answer.kind === "file" && [answer.uri, answer.mimeType]).toEqual([uri, "text/x-python"]);
  });
});

describe("generated documents win (§2.2 step 0 and 2)", () => {
  const rows: Row[] = [
    { uri: "skill://grafana/_index.md", expect: "document # grafana — 6 skills" },
    { uri: "skill://grafana/grafana-lgtm/_index.md", expect: "document # grafana/grafana-lgtm — 3 skills" },
    { uri: "skill://kit/writing/_index.md", expect: "document # kit/writing — 1 skill", why: "shadows the skill's own _index.md" },
    { uri: "skill://grafana/_files.md", expect: "document # grafana — 2 library files" },
    { uri: "skill://docs/_files.md", expect: "document # docs — 3 library files" },
    { uri: "skill://docs/_index.md", expect: "notFound", why: "a level with no visible skill has no index" },
    { uri: "skill://solo/_files.md", expect: "notFound", why: "no library files" },
    { uri: "skill://grafana/docs/_index.md", expect: "notFound", why: "not a folder, and the fallback refuses the name" },
    { uri: "skill://grafana/grafana-lgtm/loki/references/_index.md", expect: "notFound", why: "not a folder" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: expected }) => {
    expect(summary(resolve(EXAMPLE, FULL_SCOPE, uri))).toBe(expected);
  });

  test("documents carry their media type", () => {
    const types = ["skill://grafana/_index.md", "skill://grafana/_files.md", "skill://kit/writing/_manifest"].map((uri) => {
      const answer = resolve(EXAMPLE, FULL_SCOPE, uri);
      return answer.kind === "document" ? answer.mimeType : answer.kind;
    });
    expect(types).toEqual(["text/markdown", "text/markdown", "application/json"]);
  });
});

describe("library files (§2.2 step 3)", () => {
  const rows: Row[] = [
    { uri: "skill://grafana/shared/api.md", expect: "file fixture:lgtm/shared/api.md" },
    { uri: "skill://docs/guide/deep/more.md", expect: "file fixture:handbook/guide/deep/more.md" },
    { uri: "skill://mixed/zz/100%25%20sure.md", expect: "file fixture:mixedp/zz/100% sure.md" },
    { uri: "skill://mixed/aaa.md", expect: "file fixture:mixedq/aaa.md" },
    { uri: "skill://grafana/../kit/shared/x.md", expect: "notFound", why: "clamped at grafana" },
    { uri: "skill://dropped/skills/lost/SKILL.md", expect: "notFound", why: "plugin not served" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: expected }) => {
    expect(summary(resolve(EXAMPLE, FULL_SCOPE, uri))).toBe(expected);
  });
});

describe("the plugin-root fallback and its refusals", () => {
  const rows: Row[] = [
    // From inside a skill: R against the skill's own plugin root.
    { uri: "skill://grafana/grafana-lgtm/loki/shared/notes.md", expect: "fallback fixture:lgtm/shared/notes.md" },
    { uri: "skill://grafana/grafana-lgtm/loki/README.md", expect: "fallback fixture:lgtm/README.md" },
    { uri: "skill://grafana/grafana-lgtm/loki/docs/guide.md", expect: "fallback fixture:lgtm/docs/guide.md" },
    { uri: "skill://kit/writing/shared/y.md", expect: "fallback fixture:kit/shared/y.md" },
    {
      uri: "skill://kit/writing/shared/x.md",
      expect: "fallback fixture:kit/shared/x.md",
      why: "same bytes as the library file, not rewritten",
    },
    { uri: "skill://grafana/grafana-lgtm/loki/.env", expect: "notFound", why: "hidden" },
    { uri: "skill://grafana/grafana-lgtm/loki/conf/.secret/key.md", expect: "notFound", why: "hidden directory" },
    { uri: "skill://grafana/grafana-lgtm/loki/docs/_index.md", expect: "notFound", why: "reserved last segment" },
    { uri: "skill://grafana/grafana-lgtm/loki/docs/_files.md", expect: "notFound", why: "reserved last segment" },
    {
      uri: "skill://grafana/grafana-lgtm/loki/skills/grafana-lgtm/broken/ref.md",
      expect: "notFound",
      why: "inside a skipped skill's directory",
    },
    {
      uri: "skill://grafana/grafana-lgtm/loki/skills/grafana-lgtm/tempo/SKILL.md",
      expect: "notFound",
      why: "inside a served skill's directory",
    },
    { uri: "skill://grafana/grafana-lgtm/loki/grafana-lgtm/broken/ref.md", expect: "notFound", why: "inside a skipped skill's address" },
    { uri: "skill://grafana/grafana-lgtm/loki/grafana-lgtm/tempo/extra.md", expect: "notFound", why: "inside a served skill's address" },
    { uri: "skill://solo/solo/notes.md", expect: "notFound", why: "the whole plugin is a skill" },
    // The library-level fallback: admitted plugins in library order.
    { uri: "skill://grafana/README.md", expect: "fallback fixture:lgtm/README.md" },
    { uri: "skill://grafana/shared/notes.md", expect: "fallback fixture:lgtm/shared/notes.md" },
    { uri: "skill://grafana/k6-notes.md", expect: "fallback fixture:k6/k6-notes.md" },
    { uri: "skill://grafana/plugins/lgtm/shared/notes.md", expect: "fallback fixture:mono/plugins/lgtm/shared/notes.md" },
    { uri: "skill://grafana/grafana-k8/x.md", expect: "fallback fixture:mono/grafana-k8/x.md" },
    { uri: "skill://kit/other/readme.md", expect: "fallback fixture:kit/other/readme.md" },
    { uri: "skill://grafana/.env", expect: "notFound", why: "hidden" },
    { uri: "skill://grafana/conf/.secret/key.md", expect: "notFound", why: "hidden directory" },
    { uri: "skill://grafana/docs/_files.md", expect: "notFound", why: "reserved last segment" },
    { uri: "skill://grafana/skills/grafana-lgtm/broken/ref.md", expect: "notFound", why: "inside a skipped skill's directory" },
    { uri: "skill://grafana/grafana-lgtm/broken/ref.md", expect: "notFound", why: "inside a skipped skill's address" },
    { uri: "skill://grafana/grafana-lgtm/tempo/extra.md", expect: "notFound", why: "inside a served skill's address" },
    { uri: "skill://grafana/grafana-k6/k6-run/x.md", expect: "notFound", why: "inside a skill's address, another plugin's file" },
    {
      uri: "skill://grafana/plugins/k6/skills/grafana-k6/k6-run/SKILL.md",
      expect: "notFound",
      why: "another plugin's skill directory on the same fetch",
    },
    {
      uri: "skill://grafana/plugins/lgtm/skills/grafana-lgtm/broken/ref.md",
      expect: "notFound",
      why: "another plugin's skipped skill on the same fetch",
    },
    { uri: "skill://solo/notes.md", expect: "notFound", why: "the whole plugin is a skill" },
  ];
  test.each(rows)("$uri -> $expect", ({ uri, expect: expected }) => {
    expect(summary(resolve(EXAMPLE, FULL_SCOPE, uri))).toBe(expected);
  });

  test("a fallback answer is typed by its extension, URI as sent", () => {
    const uri = "skill://grafana/./README.md";
    expect(resolve(EXAMPLE, FULL_SCOPE, uri)).toEqual({
      kind: "fallback",
      uri,
      mimeType: "text/markdown",
      disk: { path: "README.md", abs: "fixture:lgtm/README.md", size: 7, mtimeMs: 0, digest: expect.any(String), text: true },
    });
  });
});

describe("scope filtering", () => {
  const lgtmOnly = scopeOf({ plugins: ["lgtm", "mono"] });
  const kitOnly = scopeOf({ library: "kit" });
  const rows: (Row & { scope: string })[] = [
    {
      scope: "lgtm+mono",
      uri: "skill://grafana/grafana-lgtm/loki/SKILL.md",
      expect: "file fixture:lgtm/skills/grafana-lgtm/loki/SKILL.md",
    },
    { scope: "lgtm+mono", uri: "skill://grafana/_index.md", expect: "document # grafana — 3 skills" },
    { scope: "lgtm+mono", uri: "skill://grafana/grafana-k6/_index.md", expect: "notFound" },
    { scope: "lgtm+mono", uri: "skill://grafana/grafana-k6/k6-run/SKILL.md", expect: "notFound" },
    { scope: "lgtm+mono", uri: "skill://grafana/grafana-k6/k6-run/_manifest", expect: "notFound" },
    { scope: "lgtm+mono", uri: "skill://grafana/overview/SKILL.md", expect: "notFound" },
    { scope: "lgtm+mono", uri: "skill://grafana/k6-notes.md", expect: "notFound", why: "k6's root is not admitted" },
    {
      scope: "lgtm+mono",
      uri: "skill://grafana/grafana-k6/k6-run/x.md",
      expect: "notFound",
      why: "narrowing never uncovers a file a skill shadows",
    },
    { scope: "lgtm+mono", uri: "skill://grafana/grafana-k8/x.md", expect: "fallback fixture:mono/grafana-k8/x.md" },
    { scope: "lgtm+mono", uri: "skill://docs/_files.md", expect: "notFound" },
    { scope: "lgtm+mono", uri: "skill://docs/a.md", expect: "notFound" },
    { scope: "kit", uri: "skill://kit/writing/SKILL.md", expect: "file fixture:kit/skills/writing/SKILL.md" },
    { scope: "kit", uri: "skill://grafana/_index.md", expect: "notFound" },
    { scope: "kit", uri: "skill://grafana/shared/api.md", expect: "notFound" },
    { scope: "kit", uri: "skill://grafana/README.md", expect: "notFound" },
  ];
  test.each(rows)("[$scope] $uri -> $expect", ({ scope, uri, expect: expected }) => {
    expect(summary(resolve(EXAMPLE, scope === "kit" ? kitOnly : lgtmOnly, uri))).toBe(expected);
  });
});

describe("not an address", () => {
  const rows = ["", "http://grafana/x", "skill://", "skill:///x", "skill://grafana/%zz", "skill://grafana/a%2Fb", "skill://nope/_index.md"];
  test.each(rows.map((uri) => ({ uri })))("$uri -> notFound", ({ uri }) => {
    expect(resolve(EXAMPLE, FULL_SCOPE, uri)).toEqual({
      kind: "notFound",
      uri,
      message: `Not found: ${uri}. Start from the resource listing (resources/list, or the list_resources tool) to see what this server serves.`,
    });
  });
});
