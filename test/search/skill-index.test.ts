// The search room: ranking, prefixes and typos, incremental updates, the library filter, argument checks.
import MiniSearch, { type SearchResult } from "minisearch";
import { describe, expect, test } from "vitest";
import {
  BODY_CHARS,
  bodyTerms,
  folderTerms,
  MINISEARCH_OPTIONS,
  MINISEARCH_QUERY,
  parseSearchRequest,
  queryTerms,
  type SearchRequest,
  SkillIndex,
  skillBody,
  skillDocument,
} from "../../src/search/index.js";
import { formatOneLine } from "../../src/address/index.js";
import type { Skill } from "../../src/shelf/index.js";

function skill(library: string, address: string, description: string, digest: string, frontmatter: Record<string, unknown> = {}): Skill {
  const segments = address.split("/");
  const name = segments[segments.length - 1] as string;
  return {
    uri: `skill://${library}/${address}`,
    library,
    plugin: `${library}-plugin`,
    address: segments,
    name,
    description,
    frontmatter: { name, description, ...frontmatter },
    dir: address,
    files: new Map([["SKILL.md", { size: 1, digest, mimeType: "text/markdown", text: true, disk: { path: "/x", mtimeMs: 0, size: 1 } }]]),
    paths: ["SKILL.md"],
  } as unknown as Skill;
}

const TERRAFORM = skill(
  "ops",
  "infra/terraform-drift",
  "Detect and reconcile drift between Terraform state and live cloud resources.",
  "d1",
  {
    tags: ["iac", "cloud"],
  },
);
const HELM = skill("ops", "infra/helm-release", "Roll out and roll back Helm charts on Kubernetes clusters.", "d2");
const PDF = skill("docs", "pdf-forms", "Fill in and extract the fields of PDF forms.", "d3", { metadata: { tags: "acrobat" } });
const PLOTS = skill("science", "plotting/matplotlib", "Publication-quality figures with matplotlib.", "d4");

const BODIES = new Map([
  ["skill://ops/infra/terraform-drift/SKILL.md", "Run terraform plan -detailed-exitcode and read the diff."],
  ["skill://ops/infra/helm-release/SKILL.md", "Use helm upgrade --install; keep values files under review."],
  ["skill://docs/pdf-forms/SKILL.md", "Open the document with pypdf and walk the AcroForm fields."],
  ["skill://science/plotting/matplotlib/SKILL.md", "Set rcParams, then savefig at 300 dpi; seaborn works too."],
]);

function built(skills: Skill[] = [TERRAFORM, HELM, PDF, PLOTS]): SkillIndex {
  const index = new SkillIndex();
  index.apply(skills, BODIES);
  return index;
}

const ask = (query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({ query, library: null, limit: 10, ...extra });
const uris = (index: SkillIndex, request: SearchRequest): string[] => {
  const outcome = index.search(request);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.rows.map((row) => row.uri);
};

describe("SkillIndex", () => {
  test("ranks by what the skill says it is; the body alone still finds a skill", () => {
    const index = built();
    expect(uris(index, ask("which skill handles terraform drift?"))).toEqual(["skill://ops/infra/terraform-drift/SKILL.md"]);
    expect(uris(index, ask("seaborn"))).toEqual(["skill://science/plotting/matplotlib/SKILL.md"]);
    expect(uris(index, ask("acrobat"))).toEqual(["skill://docs/pdf-forms/SKILL.md"]);
    expect(uris(index, ask("cloud"))).toEqual(["skill://ops/infra/terraform-drift/SKILL.md"]);
  });

  test("matches prefixes and typos", () => {
    const index = built();
    expect(uris(index, ask("terra"))).toEqual(["skill://ops/infra/terraform-drift/SKILL.md"]);
    expect(uris(index, ask("kubernets"))).toEqual(["skill://ops/infra/helm-release/SKILL.md"]);
  });

  test("answers rows of uri, name, one-line description and score; stop words alone match nothing", () => {
    const outcome = built().search(ask("helm charts"));
    expect(outcome.ok && outcome.rows.length).toBe(1);
    const row = outcome.ok ? outcome.rows[0] : undefined;
    expect(Object.keys(row ?? {})).toEqual(["uri", "name", "description", "score"]);
    expect(row).toMatchObject({ name: "helm-release", description: "Roll out and roll back Helm charts on Kubernetes clusters." });
    const long = built([skill("ops", "long", "word ".repeat(40), "l")]).search(ask("word"));
    expect(long.ok && long.rows[0]?.description).toBe(`${"word ".repeat(13)}word…`);
    expect(row?.score).toBeGreaterThan(0);
    expect(built().search(ask("how do I"))).toEqual({ ok: true, rows: [] });
  });

  test("the library filter keeps one library; a library it does not hold is refused", () => {
    const index = built();
    expect(uris(index, ask("fields figures drift", { library: "docs" }))).toEqual(["skill://docs/pdf-forms/SKILL.md"]);
    expect(index.search(ask("drift", { library: "secret" }))).toEqual({
      ok: false,
      message: "search_skills: no visible library named 'secret' holds skills; list_resources shows the libraries",
    });
  });

  test("limit cuts the ranked rows", () => {
    expect(uris(built(), ask("terraform helm pdf matplotlib", { limit: 2 }))).toHaveLength(2);
  });

  test("apply is incremental: only new or changed SKILL.md need a body; gone skills are never matched again", () => {
    const index = built([TERRAFORM, HELM]);
    expect(index.size).toBe(2);
    const changed = skill("ops", "infra/helm-release", "Package charts as OCI artifacts.", "d2b");
    expect(index.missing([TERRAFORM, changed, PDF]).map((s) => s.name)).toEqual(["helm-release", "pdf-forms"]);
    index.apply([changed, PDF], new Map([["skill://docs/pdf-forms/SKILL.md", "pypdf"]]));
    expect(index.size).toBe(2);
    expect(uris(index, ask("terraform drift"))).toEqual([]);
    expect(uris(index, ask("kubernetes rollback"))).toEqual([]);
    expect(uris(index, ask("oci artifacts"))).toEqual(["skill://ops/infra/helm-release/SKILL.md"]);
    expect(index.search(ask("drift", { library: "science" })).ok).toBe(false);
  });

  test("applyInSlices pauses after every 128 documents and ends with the index apply would build", async () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      skill("engineering", `generated/skill-${i}`, `Generated skill number ${i}.`, `g${i}`),
    );
    const sliced = new SkillIndex();
    let pauses = 0;
    let searchedMidway: number | null = null;
    await sliced.applyInSlices(many, new Map(), async () => {
      pauses++;
      searchedMidway ??= sliced.size;
    });
    expect(pauses).toBe(2);
    expect(searchedMidway).toBe(128);
    const whole = new SkillIndex();
    whole.apply(many, new Map());
    expect(sliced.size).toBe(300);
    expect(sliced.search(ask("skill number 42"))).toEqual(whole.search(ask("skill number 42")));
  });

  test("ten rows fit in about 2 KB", () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      skill("engineering", `observability/latency-budget-${i}`, `${"Tracks latency budgets and error budgets ".repeat(8)}${i}`, `x${i}`),
    );
    const index = new SkillIndex();
    index.apply(many, new Map());
    const outcome = index.search(ask("latency budget"));
    expect(outcome.ok && outcome.rows.length).toBe(10);
    expect(JSON.stringify(outcome.ok ? outcome.rows : []).length).toBeLessThanOrEqual(2048);
  });
});

describe("the same ranking as MiniSearch", () => {
  // A shelf like the generated bench one: a vocabulary of twelve words, so most words match a large share of the
  // skills; names from two words and a number, so some matches are rare; bodies repeating words.
  const VOCABULARY = "deploy cluster trace metric schema release rollback budget latency queue stream window".split(" ");
  const random =
    (seed: number) =>
    (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
  const next = random(11);
  const word = (): string => VOCABULARY[next(VOCABULARY.length)] as string;
  const sentence = (n: number): string => Array.from({ length: n }, word).join(" ");
  const make = (i: number, generation = ""): Skill =>
    skill(
      ["ops", "data", "research"][i % 3] as string,
      `${["ops", "data", "research"][i % 3]}/${word()}-${word()}-${i}`,
      `${sentence(4 + next(12))}${generation}`,
      `b${i}${generation}`,
      i % 4 === 0 ? { tags: [word(), "Ünïcode-Tag"] } : {},
    );
  const skills = Array.from({ length: 400 }, (_, i) => make(i));
  const bodyOf = (): string => `${sentence(30 + next(60))}, the ${word()}s and ${word()}ing; ${word()}!`;
  const bodies = new Map(skills.map((s) => [skillDocument(s).id, bodyOf()]));
  const QUERIES = [
    "deploy",
    "clu",
    "rollbak",
    "trace budget",
    "schema release window",
    "lat queue deploy",
    "stream stream",
    "research",
    "the how",
    "unicode",
    "ünïcode tag",
    "deploys",
    "windw metric 12",
    "queue-stream deploy-cluster",
    "xyzzy",
    "deplo",
    "rollbac windo",
  ];

  /** The rows MiniSearch itself would answer for the same documents: every match scored, merged and sorted. */
  function reference(
    visible: readonly Skill[],
    texts: ReadonlyMap<string, string>,
  ): (query: string, library: string | null) => SearchResult[] {
    const mini = new MiniSearch(MINISEARCH_OPTIONS);
    mini.addAll(
      visible.map((s) => {
        const doc = skillDocument(s);
        return { ...doc, folder: folderTerms(doc), body: bodyTerms(doc, texts.get(doc.id) ?? "") };
      }),
    );
    const libraryOf = new Map(visible.map((s) => [skillDocument(s).id, s.library]));
    return (query, library) =>
      mini
        .search(MINISEARCH_QUERY(queryTerms(query).join(" ")))
        .filter((result) => library === null || libraryOf.get(result.id as string) === library);
  }

  /** Our rows are a top `limit` of the reference: the same scores, place by place, and each row's document has
   *  that score there (documents of equal score may come in either order). */
  function expectSameRanking(index: SkillIndex, expected: (query: string, library: string | null) => SearchResult[]): void {
    let compared = 0;
    for (const query of QUERIES)
      for (const library of [null, "ops", "research"])
        for (const limit of [1, 3, 10, 50]) {
          const outcome = index.search(ask(query, { library, limit }));
          if (!outcome.ok) throw new Error(outcome.message);
          const want = expected(query, library);
          const byUri = new Map(want.map((result) => [result.id as string, result.score]));
          expect(outcome.rows.map((row) => row.score)).toEqual(want.slice(0, limit).map((result) => Math.round(result.score * 100) / 100));
          for (const row of outcome.rows) expect(Math.round((byUri.get(row.uri) ?? -1) * 100) / 100).toBe(row.score);
          compared += outcome.rows.length;
        }
    expect(compared).toBeGreaterThan(1000);
  }

  test("the fixture makes most words common and holds ties", () => {
    const common = VOCABULARY.filter((w) => skills.filter((s) => s.description.split(" ").includes(w)).length > 0.1 * skills.length);
    expect(common).toEqual(VOCABULARY);
  });

  test("a fresh index ranks as MiniSearch does, with and without a library, at every limit", () => {
    const index = new SkillIndex();
    index.apply(skills, bodies);
    expectSameRanking(index, reference(skills, bodies));
  });

  test("after changes, removals (past compaction) and additions it still ranks as a fresh MiniSearch", () => {
    const index = new SkillIndex();
    index.apply(skills, bodies);
    const changed = skills.map((s, i) => (i % 7 === 0 ? make(i, " changed") : s));
    const kept = changed.filter((_, i) => i % 5 !== 1).concat(Array.from({ length: 30 }, (_, i) => make(400 + i)));
    const texts = new Map(bodies);
    for (const s of index.missing(kept)) texts.set(skillDocument(s).id, bodyOf());
    index.apply(kept, new Map(index.missing(kept).map((s) => [skillDocument(s).id, texts.get(skillDocument(s).id) as string])));
    expect(index.size).toBe(kept.length);
    expectSameRanking(index, reference(kept, texts));
    const fewer = kept.slice(0, 120);
    index.apply(fewer, new Map());
    expect(index.size).toBe(120);
    expectSameRanking(index, reference(fewer, texts));
  });

  test("ties are broken by the order skills were indexed in", () => {
    const twins = Array.from({ length: 5 }, (_, i) => skill("ops", `twin-${"abcde"[i]}`, "Same words exactly.", `t${i}`));
    const index = new SkillIndex();
    index.apply(twins, new Map());
    const outcome = index.search(ask("same words", { limit: 3 }));
    expect(outcome.ok && outcome.rows.map((row) => row.name)).toEqual(["twin-a", "twin-b", "twin-c"]);
    expect(new Set(outcome.ok ? outcome.rows.map((row) => row.score) : []).size).toBe(1);
  });
});

describe("what is stored of a skill", () => {
  test("the body keeps only words its other fields lack, from its first BODY_CHARS characters", () => {
    const doc = skillDocument(TERRAFORM);
    expect(bodyTerms(doc, "Run terraform plan -detailed-exitcode and read the diff. Drift: Cloud!")).toBe(
      "run plan detailed exitcode read diff",
    );
    expect(bodyTerms(doc, `${"plan ".repeat(BODY_CHARS / 5)}omega`)).toBe("plan ".repeat(BODY_CHARS / 5).trim());
    expect(bodyTerms(doc, "")).toBe("");
  });

  test("the folder keeps the words that are not the skill's name", () => {
    expect(folderTerms(skillDocument(TERRAFORM))).toBe("infra");
    expect(folderTerms(skillDocument(PDF))).toBe("");
    expect(queryTerms("How do I fill PDF-forms?")).toEqual(["fill", "pdf", "forms"]);
  });
});

describe("parseSearchRequest", () => {
  test.each([
    [{}, "search_skills needs a non-empty string argument 'query', e.g. \"terraform drift\""],
    [{ query: "  " }, "search_skills needs a non-empty string argument 'query', e.g. \"terraform drift\""],
    [{ query: 3 }, "search_skills needs a non-empty string argument 'query', e.g. \"terraform drift\""],
    [{ query: "x".repeat(201) }, "search_skills: 'query' is 201 characters; the most is 200"],
    [{ query: "a", library: 1 }, "search_skills: 'library' must be a library name (a string), e.g. engineering"],
    [{ query: "a", limit: 0 }, "search_skills: 'limit' must be a whole number from 1 to 50"],
    [{ query: "a", limit: 51 }, "search_skills: 'limit' must be a whole number from 1 to 50"],
    [{ query: "a", limit: 2.5 }, "search_skills: 'limit' must be a whole number from 1 to 50"],
  ])("refuses %j", (args, message) => {
    expect(parseSearchRequest(args)).toEqual({ ok: false, message });
  });

  test("defaults the limit to 10 and trims the query", () => {
    expect(parseSearchRequest({ query: " pdf " })).toEqual({ ok: true, request: { query: "pdf", library: null, limit: 10 } });
    expect(parseSearchRequest({ query: "pdf", library: "docs", limit: 50 })).toEqual({
      ok: true,
      request: { query: "pdf", library: "docs", limit: 50 },
    });
  });
});

test("skillBody drops the frontmatter; formatOneLine folds and cuts on a word", () => {
  expect(skillBody("---\nname: a\ndescription: b\n---\n# Body\ntext")).toBe("# Body\ntext");
  expect(skillBody("\uFEFF---\r\nname: a\r\n---\r\nbody")).toBe("body");
  expect(skillBody("no frontmatter")).toBe("no frontmatter");
  expect(formatOneLine("one\n two   three", 100)).toBe("one two three");
  expect(formatOneLine("alpha beta gamma delta", 12)).toBe("alpha beta…");
});
