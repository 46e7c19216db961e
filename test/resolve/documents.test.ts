import { describe, expect, test } from "vitest";
import { FULL_SCOPE, INDEX_ADVICE, listingRows, resolve, type Scope, visibleSkills } from "../../src/resolve/index.js";
import { EXAMPLE } from "./example-shelf.js";
import { digestOf, scopeOf, skillMd } from "./shelf-fixture.js";

const LGTM = scopeOf({ plugins: ["lgtm", "mono"] });

function text(scope: Scope, uri: string): string {
  const answer = resolve(EXAMPLE, scope, uri);
  return answer.kind === "document" ? answer.text : `not a document: ${answer.kind}`;
}

describe("_index.md (§4.1), exact text", () => {
  const rows: { scope: Scope; name: string; uri: string; lines: string[] }[] = [
    {
      scope: FULL_SCOPE,
      name: "full",
      uri: "skill://grafana/_index.md",
      lines: [
        "# grafana — 6 skills",
        "",
        "skill://grafana/grafana-k6/_index.md: 2 skills",
        "skill://grafana/grafana-lgtm/_index.md: 3 skills",
        "skill://grafana/overview/SKILL.md: Start here. Then pick a folder.",
        "skill://grafana/_files.md: 2 library files",
      ],
    },
    {
      scope: FULL_SCOPE,
      name: "full",
      uri: "skill://grafana/grafana-lgtm/_index.md",
      lines: [
        "# grafana/grafana-lgtm — 3 skills",
        "",
        "skill://grafana/grafana-lgtm/loki/SKILL.md: Query logs with LogQL.",
        "skill://grafana/grafana-lgtm/mimir/SKILL.md: Metrics at scale.",
        "skill://grafana/grafana-lgtm/tempo/SKILL.md: Trace with TraceQL.",
      ],
    },
    {
      scope: FULL_SCOPE,
      name: "full",
      uri: "skill://kit/_index.md",
      lines: [
        "# kit — 2 skills",
        "",
        "skill://kit/writing/_index.md: 1 skill",
        "skill://kit/writing/SKILL.md: Write well.",
        "skill://kit/_files.md: 1 library file",
      ],
    },
    {
      scope: FULL_SCOPE,
      name: "full",
      uri: "skill://kit/writing/_index.md",
      lines: ["# kit/writing — 1 skill", "", "skill://kit/writing/drafts/SKILL.md: Draft first."],
    },
    {
      scope: FULL_SCOPE,
      name: "full",
      uri: "skill://mixed/_index.md",
      lines: [
        "# mixed — 2 skills",
        "",
        "skill://mixed/my%20notes/_index.md: 1 skill",
        "skill://mixed/team/_index.md: 1 skill",
        "skill://mixed/_files.md: 3 library files",
      ],
    },
    {
      scope: FULL_SCOPE,
      name: "full",
      uri: "skill://solo/_index.md",
      lines: ["# solo — 1 skill", "", "skill://solo/solo/SKILL.md: The solo skill."],
    },
    {
      scope: LGTM,
      name: "lgtm",
      uri: "skill://grafana/_index.md",
      lines: ["# grafana — 3 skills", "", "skill://grafana/grafana-lgtm/_index.md: 3 skills", "skill://grafana/_files.md: 2 library files"],
    },
  ];
  test.each(rows)("[$name] $uri", ({ scope, uri, lines }) => {
    expect(text(scope, uri)).toBe([...lines, "", INDEX_ADVICE, ""].join("\n"));
  });
});

describe("_files.md (§4.2), exact text", () => {
  const advice = "These files sit outside every skill; skills cite them, so read one when a skill points to it.";
  const rows = [
    {
      uri: "skill://grafana/_files.md",
      lines: ["# grafana — 2 library files", "", advice, "", "skill://grafana/shared/api.md", "skill://grafana/shared/auth.md"],
    },
    { uri: "skill://kit/_files.md", lines: ["# kit — 1 library file", "", advice, "", "skill://kit/shared/x.md"] },
    {
      uri: "skill://docs/_files.md",
      lines: [
        "# docs — 3 library files",
        "",
        advice,
        "",
        "skill://docs/a.md",
        "skill://docs/guide/deep/more.md",
        "skill://docs/guide/intro.md",
      ],
    },
    {
      // Plugin order first: mixedq's aaa.md comes after every file of mixedp.
      uri: "skill://mixed/_files.md",
      lines: [
        "# mixed — 3 library files",
        "",
        advice,
        "",
        "skill://mixed/team/README.md",
        "skill://mixed/zz/100%25%20sure.md",
        "skill://mixed/aaa.md",
      ],
    },
  ];
  test.each(rows)("$uri", ({ uri, lines }) => {
    expect(text(FULL_SCOPE, uri)).toBe([...lines, ""].join("\n"));
  });
});

describe("_manifest (§4.3), exact JSON", () => {
  const entry = (path: string, content: string): string =>
    `    {"path": "${path}", "size": ${Buffer.byteLength(content)}, "hash": "${digestOf(content)}"}`;
  const rows = [
    {
      uri: "skill://grafana/grafana-lgtm/loki/_manifest",
      skill: "grafana/grafana-lgtm/loki",
      entries: [
        entry(".github/notes.md", "dot-github is not hidden\n"),
        entry("SKILL.md", skillMd("loki", "Query logs with LogQL.")),
        entry("_index.md", "a skill file named _index.md\n"),
        entry("references/deep/more.md", "more\n"),
        entry("references/logql.md", "# LogQL\n"),
        entry("scripts/q.py", "print('q')\n"),
      ],
    },
    {
      // Its own _index.md is shadowed by the folder index, so a read would not return it: not listed.
      uri: "skill://kit/writing/_manifest",
      skill: "kit/writing",
      entries: [
        entry("SKILL.md", skillMd("writing", "Write well.")),
        entry("drafts/SKILL.md", skillMd("drafts", "Draft first.")),
        entry("refs/style.md", "# Style\n"),
      ],
    },
    {
      uri: "skill://kit/writing/drafts/_manifest",
      skill: "kit/writing/drafts",
      entries: [entry("SKILL.md", skillMd("drafts", "Draft first."))],
    },
  ];
  test.each(rows)("$uri", ({ uri, skill, entries }) => {
    expect(text(FULL_SCOPE, uri)).toBe(`{\n  "skill": "${skill}",\n  "files": [\n${entries.join(",\n")}\n  ]\n}\n`);
    expect(JSON.parse(text(FULL_SCOPE, uri))).toMatchObject({ skill });
  });
});

describe("listing rows (§4.4)", () => {
  const md = "text/markdown";
  const indexRows = [
    { uri: "skill://docs/_files.md", name: "docs/_files.md", description: "3 library files outside every skill.", mimeType: md },
    {
      uri: "skill://grafana/_index.md",
      name: "grafana/_index.md",
      description: "Library index: 6 skills. Grafana's skills.",
      mimeType: md,
    },
    {
      uri: "skill://grafana/grafana-k6/_index.md",
      name: "grafana/grafana-k6/_index.md",
      description: "Folder index: 2 skills.",
      mimeType: md,
    },
    {
      uri: "skill://grafana/grafana-lgtm/_index.md",
      name: "grafana/grafana-lgtm/_index.md",
      description: "Folder index: 3 skills.",
      mimeType: md,
    },
    { uri: "skill://grafana/_files.md", name: "grafana/_files.md", description: "2 library files outside every skill.", mimeType: md },
    { uri: "skill://kit/_index.md", name: "kit/_index.md", description: "Library index: 2 skills.", mimeType: md },
    { uri: "skill://kit/writing/_index.md", name: "kit/writing/_index.md", description: "Folder index: 1 skill.", mimeType: md },
    { uri: "skill://kit/_files.md", name: "kit/_files.md", description: "1 library file outside every skill.", mimeType: md },
    { uri: "skill://mixed/_index.md", name: "mixed/_index.md", description: "Library index: 2 skills.", mimeType: md },
    { uri: "skill://mixed/my%20notes/_index.md", name: "mixed/my notes/_index.md", description: "Folder index: 1 skill.", mimeType: md },
    { uri: "skill://mixed/team/_index.md", name: "mixed/team/_index.md", description: "Folder index: 1 skill.", mimeType: md },
    { uri: "skill://mixed/_files.md", name: "mixed/_files.md", description: "3 library files outside every skill.", mimeType: md },
    { uri: "skill://solo/_index.md", name: "solo/_index.md", description: "Library index: 1 skill.", mimeType: md },
  ];

  test("index rows, libraries sorted by name", () => {
    expect(listingRows(EXAMPLE, FULL_SCOPE, false)).toEqual(indexRows);
  });

  test("full appends one row per visible skill, sorted by URI", () => {
    const skill = (uri: string, name: string, description: string) => ({ uri, name, description, mimeType: md });
    expect(listingRows(EXAMPLE, FULL_SCOPE, true)).toEqual([
      ...indexRows,
      skill("skill://grafana/grafana-k6/k6-cloud/SKILL.md", "k6-cloud", "Run k6 in the cloud."),
      skill("skill://grafana/grafana-k6/k6-run/SKILL.md", "k6-run", "Run a k6 test."),
      skill("skill://grafana/grafana-lgtm/loki/SKILL.md", "loki", "Query logs with LogQL."),
      skill("skill://grafana/grafana-lgtm/mimir/SKILL.md", "mimir", "Metrics at scale."),
      skill("skill://grafana/grafana-lgtm/tempo/SKILL.md", "tempo", "Trace with TraceQL."),
      skill("skill://grafana/overview/SKILL.md", "overview", "Start here.\n  Then   pick\ta folder.\n"),
      skill("skill://kit/writing/SKILL.md", "writing", "Write well."),
      skill("skill://kit/writing/drafts/SKILL.md", "drafts", "Draft first."),
      skill("skill://mixed/my%20notes/beta/SKILL.md", "beta", "Spaces in a folder."),
      skill("skill://mixed/team/alpha/SKILL.md", "alpha", "The alpha skill."),
      skill("skill://solo/solo/SKILL.md", "solo", "The solo skill."),
    ]);
  });

  test("a narrowed scope lists only what it sees", () => {
    expect(listingRows(EXAMPLE, LGTM, true)).toEqual([
      indexRows[1] && { ...indexRows[1], description: "Library index: 3 skills. Grafana's skills." },
      indexRows[3],
      indexRows[4],
      { uri: "skill://grafana/grafana-lgtm/loki/SKILL.md", name: "loki", description: "Query logs with LogQL.", mimeType: md },
      { uri: "skill://grafana/grafana-lgtm/mimir/SKILL.md", name: "mimir", description: "Metrics at scale.", mimeType: md },
      { uri: "skill://grafana/grafana-lgtm/tempo/SKILL.md", name: "tempo", description: "Trace with TraceQL.", mimeType: md },
    ]);
    expect(listingRows(EXAMPLE, scopeOf({ library: "docs" }), false)).toEqual([indexRows[0]]);
  });

  test("visibleSkills follows the same order", () => {
    expect(visibleSkills(EXAMPLE, LGTM).map((skill) => skill.name)).toEqual(["loki", "mimir", "tempo"]);
  });
});

describe("every URI a listing, an index, _files.md or a manifest names reads back", () => {
  const scopes = [
    { name: "full", scope: FULL_SCOPE },
    { name: "lgtm+mono", scope: LGTM },
    { name: "kit", scope: scopeOf({ library: "kit" }) },
    { name: "k6+kit+mixedq", scope: scopeOf({ plugins: ["k6", "kit", "mixedq"] }) },
  ];
  test.each(scopes)("$name", ({ scope }) => {
    const seen = new Set<string>();
    const queue = listingRows(EXAMPLE, scope, true).map((row) => row.uri);
    while (queue.length > 0) {
      const uri = queue.shift() as string;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const answer = resolve(EXAMPLE, scope, uri);
      expect([uri, answer.kind]).not.toEqual([uri, "notFound"]);
      if (answer.kind !== "document") continue;
      if (answer.mimeType === "application/json") {
        const manifest = JSON.parse(answer.text) as { skill: string; files: { path: string; size: number; hash: string }[] };
        const base = uri.slice(0, -"_manifest".length);
        for (const file of manifest.files) {
          const read = resolve(EXAMPLE, scope, base + file.path.split("/").map(encodeURIComponent).join("/"));
          expect(read.kind === "file" && [read.file.size, read.file.digest]).toEqual([file.size, file.hash]);
        }
        continue;
      }
      for (const line of answer.text.split("\n")) {
        const named = /^(skill:\/\/\S+?)(?::|$)/.exec(line)?.[1];
        if (named !== undefined) queue.push(named);
      }
      // Every SKILL.md an index names also has a manifest.
      for (const line of answer.text.split("\n")) {
        const skill = /^(skill:\/\/\S+)\/SKILL\.md:/.exec(line)?.[1];
        if (skill !== undefined) queue.push(`${skill}/_manifest`);
      }
    }
    expect(seen.size).toBeGreaterThan(3);
  });
});
