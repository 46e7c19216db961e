// What each scope of the fixture must see, written out: every address of the shelf with the plugin that
// ships it, the generated documents per (library, admitted plugins), and the scope rows of the matrix.
import { file, manifest } from "./fixture.js";
import type { Ceiling, ScopeSpec } from "../../src/config/index.js";

export const O = "ops-kit";
export const R = "review-kit";
export const W = "writing-kit";
export const B = "broken-kit";

export const MD = "text/markdown";
export const DIR = "inode/directory";
const INDEX_ADVICE =
  "Read a folder's _index.md to see what it holds, a skill's SKILL.md for its instructions, and the skill's _manifest for the other files it ships.";
const FILES_ADVICE = "These files sit outside every skill; skills cite them, so read one when a skill points to it.";

/** The address every out-of-scope answer is compared to: a library that never existed. */
export const NEVER = "skill://nolib/never.md";
export const NEVER_MESSAGE = `Not found: ${NEVER}. Start from the resource listing (resources/list, or the list_resources tool) to see what this server serves.`;
export const NEVER_DIRECTORY = "skill://nolib";
export const NEVER_PROMPT = "nolib_never";
export const NEVER_PROMPT_MESSAGE = `Prompt not found: ${NEVER_PROMPT}. List the prompts (prompts/list, or the list_prompts tool) to see what this server serves.`;
export const NEVER_SKILL = "skill://nolib/never/SKILL.md";
export const NEVER_SKILL_MESSAGE = `Not a skill: ${NEVER_SKILL}. skills/get takes the SKILL.md URI of a skill from skills/list.`;

/** `never` with its URI (or name) replaced by `uri`: what an out-of-scope address must answer, byte for byte. */
export function asNever(message: string, never: string, uri: string): string {
  return message.split(never).join(uri);
}

type Library = "eng" | "docs" | "dead";

/** code-review's SKILL.md cites `${CLAUDE_PLUGIN_ROOT}`, so its served bytes depend on the library. */
const codeReviewMd = (lib: Library): string => file(R, "skills/code-review/SKILL.md").replace("${CLAUDE_PLUGIN_ROOT}", `skill://${lib}`);

export interface Addressed {
  readonly uri: string;
  readonly lib: Library;
  readonly plugin: string;
  readonly text: string;
  readonly mimeType: string;
}

const at = (lib: Library, plugin: string, rest: string, text: string, mimeType = MD): Addressed => ({
  uri: `skill://${lib}/${rest}`,
  lib,
  plugin,
  text,
  mimeType,
});
const json = "application/json";

/** Skill files (SKILL.md and supporting files), read through the skill. */
export const SKILL_FILES: readonly Addressed[] = [
  at("eng", O, "triage/SKILL.md", file(O, "skills/triage/SKILL.md")),
  at("eng", O, "observability/logs/SKILL.md", file(O, "skills/observability/logs/SKILL.md")),
  at("eng", O, "observability/logs/references/logql.md", file(O, "skills/observability/logs/references/logql.md")),
  at("eng", O, "observability/logs/deep/SKILL.md", file(O, "skills/observability/logs/deep/SKILL.md")),
  at("eng", O, "observability/metrics/SKILL.md", file(O, "skills/observability/metrics/SKILL.md")),
  at("eng", R, "code-review/SKILL.md", codeReviewMd("eng")),
  at("eng", R, "code-review/checklist.md", file(R, "skills/code-review/checklist.md")),
  at("eng", R, "quality/lint/SKILL.md", file(R, "skills/quality/lint/SKILL.md")),
  at("docs", W, "release-notes/SKILL.md", file(W, "skills/release-notes/SKILL.md")),
  at("docs", W, "release-notes/assets/template.md", file(W, "skills/release-notes/assets/template.md")),
  at("docs", W, "editing/proofread/SKILL.md", file(W, "skills/editing/proofread/SKILL.md")),
  at("docs", R, "code-review/SKILL.md", codeReviewMd("docs")),
  at("docs", R, "code-review/checklist.md", file(R, "skills/code-review/checklist.md")),
  at("docs", R, "quality/lint/SKILL.md", file(R, "skills/quality/lint/SKILL.md")),
];

const logsMd = file(O, "skills/observability/logs/SKILL.md");
const deepMd = file(O, "skills/observability/logs/deep/SKILL.md");
export const MANIFESTS: readonly Addressed[] = [
  at("eng", O, "triage/_manifest", manifest("eng/triage", [["SKILL.md", file(O, "skills/triage/SKILL.md")]]), json),
  at(
    "eng",
    O,
    "observability/logs/_manifest",
    manifest("eng/observability/logs", [
      ["SKILL.md", logsMd],
      ["deep/SKILL.md", deepMd],
      ["references/logql.md", file(O, "skills/observability/logs/references/logql.md")],
    ]),
    json,
  ),
  at("eng", O, "observability/logs/deep/_manifest", manifest("eng/observability/logs/deep", [["SKILL.md", deepMd]]), json),
  at(
    "eng",
    O,
    "observability/metrics/_manifest",
    manifest("eng/observability/metrics", [["SKILL.md", file(O, "skills/observability/metrics/SKILL.md")]]),
    json,
  ),
  at(
    "eng",
    R,
    "code-review/_manifest",
    manifest("eng/code-review", [
      ["SKILL.md", codeReviewMd("eng")],
      ["checklist.md", file(R, "skills/code-review/checklist.md")],
    ]),
    json,
  ),
  at("eng", R, "quality/lint/_manifest", manifest("eng/quality/lint", [["SKILL.md", file(R, "skills/quality/lint/SKILL.md")]]), json),
  at(
    "docs",
    W,
    "release-notes/_manifest",
    manifest("docs/release-notes", [
      ["SKILL.md", file(W, "skills/release-notes/SKILL.md")],
      ["assets/template.md", file(W, "skills/release-notes/assets/template.md")],
    ]),
    json,
  ),
  at(
    "docs",
    W,
    "editing/proofread/_manifest",
    manifest("docs/editing/proofread", [["SKILL.md", file(W, "skills/editing/proofread/SKILL.md")]]),
    json,
  ),
  at(
    "docs",
    R,
    "code-review/_manifest",
    manifest("docs/code-review", [
      ["SKILL.md", codeReviewMd("docs")],
      ["checklist.md", file(R, "skills/code-review/checklist.md")],
    ]),
    json,
  ),
  at("docs", R, "quality/lint/_manifest", manifest("docs/quality/lint", [["SKILL.md", file(R, "skills/quality/lint/SKILL.md")]]), json),
];

/** Library files published by `files` globs (listed in `_files.md`). */
export const LIBRARY_FILES: readonly Addressed[] = [
  at("eng", O, "shared/runbook.md", file(O, "shared/runbook.md")),
  at("eng", R, "docs/style.md", file(R, "docs/style.md")),
  at("docs", W, "guide/tone.md", file(W, "guide/tone.md")),
  at("docs", R, "docs/style.md", file(R, "docs/style.md")),
];

/** Plugin-root fallbacks: library-level, and under a skill of the plugin. Never listed anywhere. */
export const FALLBACKS: readonly Addressed[] = [
  at("eng", O, "notes/oncall.md", file(O, "notes/oncall.md")),
  at("eng", O, "prompts/page.md", file(O, "prompts/page.md")),
  at("eng", O, "triage/notes/oncall.md", file(O, "notes/oncall.md")),
  at("eng", O, "triage/shared/runbook.md", file(O, "shared/runbook.md")),
  at("eng", R, "prompts/review.md", file(R, "prompts/review.md")),
  at("eng", R, "code-review/docs/style.md", file(R, "docs/style.md")),
  at("docs", W, "README.md", file(W, "README.md")),
  at("docs", W, "prompts/summarize.md", file(W, "prompts/summarize.md")),
  at("docs", W, "release-notes/README.md", file(W, "README.md")),
  at("docs", R, "prompts/review.md", file(R, "prompts/review.md")),
  at("docs", R, "code-review/docs/style.md", file(R, "docs/style.md")),
];

/** Addresses that resemble real ones but exist in no scope: hidden files, another library's files, dot segments
 *  that stay in their library, a skill-root fallback into another plugin, a library whose plugin failed. */
export const NEVER_EXISTING: readonly string[] = [
  NEVER,
  "skill://eng/never/x.md",
  "skill://eng/.env",
  "skill://eng/triage/.env",
  "skill://eng/README.md",
  "skill://docs/notes/oncall.md",
  "skill://docs/triage/SKILL.md",
  "skill://docs/observability/logs/SKILL.md",
  "skill://docs/../eng/triage/SKILL.md",
  "skill://eng/code-review/shared/runbook.md",
  "skill://eng/triage/prompts/review.md",
  "skill://dead/_index.md",
  "skill://dead/_files.md",
  "skill://dead/x.md",
  "skill://eng/_index.md/x",
  "skill://eng/observability/_index.md/../nothing.md",
];

/** Generated documents: `_index.md` and `_files.md` for each (library, admitted plugins) a scope can produce. */
const index = (title: string, count: number, lines: readonly string[]): string =>
  [`# ${title} — ${count} skill${count === 1 ? "" : "s"}`, "", ...lines, "", INDEX_ADVICE, ""].join("\n");
const filesDoc = (lib: string, uris: readonly string[]): string =>
  [`# ${lib} — ${uris.length} library file${uris.length === 1 ? "" : "s"}`, "", FILES_ADVICE, "", ...uris, ""].join("\n");

const ENG_OBSERVABILITY = {
  "skill://eng/observability/_index.md": index("eng/observability", 3, [
    "skill://eng/observability/logs/_index.md: 1 skill",
    "skill://eng/observability/logs/SKILL.md: Query logs.",
    "skill://eng/observability/metrics/SKILL.md: Query metrics.",
  ]),
  "skill://eng/observability/logs/_index.md": index("eng/observability/logs", 1, [
    "skill://eng/observability/logs/deep/SKILL.md: Deep log forensics.",
  ]),
};
const ENG_QUALITY = { "skill://eng/quality/_index.md": index("eng/quality", 1, ["skill://eng/quality/lint/SKILL.md: Lint the code."]) };
const DOCS_EDITING = {
  "skill://docs/editing/_index.md": index("docs/editing", 1, ["skill://docs/editing/proofread/SKILL.md: Proofread a text."]),
};
const DOCS_QUALITY = { "skill://docs/quality/_index.md": index("docs/quality", 1, ["skill://docs/quality/lint/SKILL.md: Lint the code."]) };

/** Keyed `<library>:<admitted plugins of it, in library order>`. */
export const DOCUMENTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [`eng:${O},${R}`]: {
    "skill://eng/_index.md": index("eng", 6, [
      "skill://eng/observability/_index.md: 3 skills",
      "skill://eng/quality/_index.md: 1 skill",
      "skill://eng/code-review/SKILL.md: Review a change.",
      "skill://eng/triage/SKILL.md: Triage a page.",
      "skill://eng/_files.md: 2 library files",
    ]),
    ...ENG_OBSERVABILITY,
    ...ENG_QUALITY,
    "skill://eng/_files.md": filesDoc("eng", ["skill://eng/shared/runbook.md", "skill://eng/docs/style.md"]),
  },
  [`eng:${O}`]: {
    "skill://eng/_index.md": index("eng", 4, [
      "skill://eng/observability/_index.md: 3 skills",
      "skill://eng/triage/SKILL.md: Triage a page.",
      "skill://eng/_files.md: 1 library file",
    ]),
    ...ENG_OBSERVABILITY,
    "skill://eng/_files.md": filesDoc("eng", ["skill://eng/shared/runbook.md"]),
  },
  [`eng:${R}`]: {
    "skill://eng/_index.md": index("eng", 2, [
      "skill://eng/quality/_index.md: 1 skill",
      "skill://eng/code-review/SKILL.md: Review a change.",
      "skill://eng/_files.md: 1 library file",
    ]),
    ...ENG_QUALITY,
    "skill://eng/_files.md": filesDoc("eng", ["skill://eng/docs/style.md"]),
  },
  "eng:": {},
  [`docs:${W},${R}`]: {
    "skill://docs/_index.md": index("docs", 4, [
      "skill://docs/editing/_index.md: 1 skill",
      "skill://docs/quality/_index.md: 1 skill",
      "skill://docs/code-review/SKILL.md: Review a change.",
      "skill://docs/release-notes/SKILL.md: Write release notes.",
      "skill://docs/_files.md: 2 library files",
    ]),
    ...DOCS_EDITING,
    ...DOCS_QUALITY,
    "skill://docs/_files.md": filesDoc("docs", ["skill://docs/guide/tone.md", "skill://docs/docs/style.md"]),
  },
  [`docs:${W}`]: {
    "skill://docs/_index.md": index("docs", 2, [
      "skill://docs/editing/_index.md: 1 skill",
      "skill://docs/release-notes/SKILL.md: Write release notes.",
      "skill://docs/_files.md: 1 library file",
    ]),
    ...DOCS_EDITING,
    "skill://docs/_files.md": filesDoc("docs", ["skill://docs/guide/tone.md"]),
  },
  [`docs:${R}`]: {
    "skill://docs/_index.md": index("docs", 2, [
      "skill://docs/quality/_index.md: 1 skill",
      "skill://docs/code-review/SKILL.md: Review a change.",
      "skill://docs/_files.md: 1 library file",
    ]),
    ...DOCS_QUALITY,
    "skill://docs/_files.md": filesDoc("docs", ["skill://docs/docs/style.md"]),
  },
  "docs:": {},
  [`dead:${B}`]: {},
  "dead:": {},
};

/** Every generated-document address of the fixture (plus ones that never exist). */
export const DOCUMENT_URIS: readonly string[] = [
  ...new Set([...Object.values(DOCUMENTS).flatMap((docs) => Object.keys(docs)), "skill://dead/_index.md", "skill://dead/_files.md"]),
].sort();

/** Listing rows per (library, admitted), as [uri, description]; `name` is the URI without its scheme. */
export const LISTINGS: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  [`eng:${O},${R}`]: [
    ["skill://eng/_index.md", "Library index: 6 skills. Engineering practice"],
    ["skill://eng/observability/_index.md", "Folder index: 3 skills."],
    ["skill://eng/quality/_index.md", "Folder index: 1 skill."],
    ["skill://eng/_files.md", "2 library files outside every skill."],
  ],
  [`eng:${O}`]: [
    ["skill://eng/_index.md", "Library index: 4 skills. Engineering practice"],
    ["skill://eng/observability/_index.md", "Folder index: 3 skills."],
    ["skill://eng/_files.md", "1 library file outside every skill."],
  ],
  [`eng:${R}`]: [
    ["skill://eng/_index.md", "Library index: 2 skills. Engineering practice"],
    ["skill://eng/quality/_index.md", "Folder index: 1 skill."],
    ["skill://eng/_files.md", "1 library file outside every skill."],
  ],
  "eng:": [],
  [`docs:${W},${R}`]: [
    ["skill://docs/_index.md", "Library index: 4 skills. Writing for users"],
    ["skill://docs/editing/_index.md", "Folder index: 1 skill."],
    ["skill://docs/quality/_index.md", "Folder index: 1 skill."],
    ["skill://docs/_files.md", "2 library files outside every skill."],
  ],
  [`docs:${W}`]: [
    ["skill://docs/_index.md", "Library index: 2 skills. Writing for users"],
    ["skill://docs/editing/_index.md", "Folder index: 1 skill."],
    ["skill://docs/_files.md", "1 library file outside every skill."],
  ],
  [`docs:${R}`]: [
    ["skill://docs/_index.md", "Library index: 2 skills. Writing for users"],
    ["skill://docs/quality/_index.md", "Folder index: 1 skill."],
    ["skill://docs/_files.md", "1 library file outside every skill."],
  ],
  "docs:": [],
  [`dead:${B}`]: [],
  "dead:": [],
};

/** A skill: its SKILL.md URI, library, plugin, name and description (for skills/list and the full listing). */
export interface SkillRow {
  readonly uri: string;
  readonly lib: Library;
  readonly plugin: string;
  readonly name: string;
  readonly description: string;
}
const skill = (lib: Library, plugin: string, address: string, description: string): SkillRow => ({
  uri: `skill://${lib}/${address}/SKILL.md`,
  lib,
  plugin,
  name: address.slice(address.lastIndexOf("/") + 1),
  description,
});
export const SKILLS: readonly SkillRow[] = [
  skill("eng", O, "triage", "Triage a page."),
  skill("eng", O, "observability/logs", "Query logs."),
  skill("eng", O, "observability/logs/deep", "Deep log forensics."),
  skill("eng", O, "observability/metrics", "Query metrics."),
  skill("eng", R, "code-review", "Review a change."),
  skill("eng", R, "quality/lint", "Lint the code."),
  skill("docs", W, "release-notes", "Write release notes."),
  skill("docs", W, "editing/proofread", "Proofread a text."),
  skill("docs", R, "code-review", "Review a change."),
  skill("docs", R, "quality/lint", "Lint the code."),
];

/** A directory: the hint a read of it gives when visible, and what a directory read lists. */
export interface Directory {
  readonly uri: string;
  readonly lib: Library;
  /** The plugin that makes it a directory; `null` for a library root (visible when the library shows a skill). */
  readonly plugin: string | null;
  readonly hint: string;
  readonly entries: readonly Record<string, unknown>[];
}
const sub = (uri: string): Record<string, unknown> => ({ uri, name: uri.slice(uri.lastIndexOf("/") + 1), mimeType: DIR });
const size = (text: string): number => Buffer.byteLength(text, "utf8");
const skillEntry = (uri: string, name: string, text: string, description: string): Record<string, unknown> => ({
  uri,
  name,
  mimeType: MD,
  size: size(text),
  description,
});
const fileEntry = (uri: string, text: string): Record<string, unknown> => ({
  uri,
  name: uri.slice(uri.lastIndexOf("/") + 1),
  mimeType: MD,
  size: size(text),
});
const skillHint = (base: string): string => `It is a skill: read ${base}/SKILL.md or ${base}/_manifest.`;
const folderHint = (base: string): string => `It is a folder: read ${base}/_index.md.`;

export const DIRECTORIES: readonly Directory[] = [
  {
    uri: "skill://eng/observability",
    lib: "eng",
    plugin: O,
    hint: folderHint("skill://eng/observability"),
    entries: [sub("skill://eng/observability/logs"), sub("skill://eng/observability/metrics")],
  },
  {
    uri: "skill://eng/observability/logs",
    lib: "eng",
    plugin: O,
    hint: "It is a skill and a folder: read skill://eng/observability/logs/SKILL.md, skill://eng/observability/logs/_manifest or skill://eng/observability/logs/_index.md.",
    entries: [
      skillEntry("skill://eng/observability/logs/SKILL.md", "logs", logsMd, "Query logs."),
      sub("skill://eng/observability/logs/deep"),
      sub("skill://eng/observability/logs/references"),
    ],
  },
  {
    uri: "skill://eng/observability/logs/references",
    lib: "eng",
    plugin: O,
    hint: "It is a directory inside a skill: read skill://eng/observability/logs/_manifest.",
    entries: [fileEntry("skill://eng/observability/logs/references/logql.md", file(O, "skills/observability/logs/references/logql.md"))],
  },
  {
    uri: "skill://eng/observability/logs/deep",
    lib: "eng",
    plugin: O,
    hint: skillHint("skill://eng/observability/logs/deep"),
    entries: [skillEntry("skill://eng/observability/logs/deep/SKILL.md", "deep", deepMd, "Deep log forensics.")],
  },
  {
    uri: "skill://eng/observability/metrics",
    lib: "eng",
    plugin: O,
    hint: skillHint("skill://eng/observability/metrics"),
    entries: [
      skillEntry(
        "skill://eng/observability/metrics/SKILL.md",
        "metrics",
        file(O, "skills/observability/metrics/SKILL.md"),
        "Query metrics.",
      ),
    ],
  },
  {
    uri: "skill://eng/shared",
    lib: "eng",
    plugin: O,
    hint: "It is a directory of library files: read skill://eng/_files.md.",
    entries: [fileEntry("skill://eng/shared/runbook.md", file(O, "shared/runbook.md"))],
  },
  {
    uri: "skill://eng/triage",
    lib: "eng",
    plugin: O,
    hint: skillHint("skill://eng/triage"),
    entries: [skillEntry("skill://eng/triage/SKILL.md", "triage", file(O, "skills/triage/SKILL.md"), "Triage a page.")],
  },
  {
    uri: "skill://eng/quality",
    lib: "eng",
    plugin: R,
    hint: folderHint("skill://eng/quality"),
    entries: [sub("skill://eng/quality/lint")],
  },
  {
    uri: "skill://eng/quality/lint",
    lib: "eng",
    plugin: R,
    hint: skillHint("skill://eng/quality/lint"),
    entries: [skillEntry("skill://eng/quality/lint/SKILL.md", "lint", file(R, "skills/quality/lint/SKILL.md"), "Lint the code.")],
  },
  {
    uri: "skill://eng/code-review",
    lib: "eng",
    plugin: R,
    hint: skillHint("skill://eng/code-review"),
    entries: [
      skillEntry("skill://eng/code-review/SKILL.md", "code-review", codeReviewMd("eng"), "Review a change."),
      fileEntry("skill://eng/code-review/checklist.md", file(R, "skills/code-review/checklist.md")),
    ],
  },
  {
    uri: "skill://eng/docs",
    lib: "eng",
    plugin: R,
    hint: "It is a directory of library files: read skill://eng/_files.md.",
    entries: [fileEntry("skill://eng/docs/style.md", file(R, "docs/style.md"))],
  },
  {
    uri: "skill://docs/editing",
    lib: "docs",
    plugin: W,
    hint: folderHint("skill://docs/editing"),
    entries: [sub("skill://docs/editing/proofread")],
  },
  {
    uri: "skill://docs/editing/proofread",
    lib: "docs",
    plugin: W,
    hint: skillHint("skill://docs/editing/proofread"),
    entries: [
      skillEntry("skill://docs/editing/proofread/SKILL.md", "proofread", file(W, "skills/editing/proofread/SKILL.md"), "Proofread a text."),
    ],
  },
  {
    uri: "skill://docs/release-notes",
    lib: "docs",
    plugin: W,
    hint: skillHint("skill://docs/release-notes"),
    entries: [
      skillEntry("skill://docs/release-notes/SKILL.md", "release-notes", file(W, "skills/release-notes/SKILL.md"), "Write release notes."),
      sub("skill://docs/release-notes/assets"),
    ],
  },
  {
    uri: "skill://docs/release-notes/assets",
    lib: "docs",
    plugin: W,
    hint: "It is a directory inside a skill: read skill://docs/release-notes/_manifest.",
    entries: [fileEntry("skill://docs/release-notes/assets/template.md", file(W, "skills/release-notes/assets/template.md"))],
  },
  {
    uri: "skill://docs/guide",
    lib: "docs",
    plugin: W,
    hint: "It is a directory of library files: read skill://docs/_files.md.",
    entries: [fileEntry("skill://docs/guide/tone.md", file(W, "guide/tone.md"))],
  },
  {
    uri: "skill://docs/quality",
    lib: "docs",
    plugin: R,
    hint: folderHint("skill://docs/quality"),
    entries: [sub("skill://docs/quality/lint")],
  },
  {
    uri: "skill://docs/quality/lint",
    lib: "docs",
    plugin: R,
    hint: skillHint("skill://docs/quality/lint"),
    entries: [skillEntry("skill://docs/quality/lint/SKILL.md", "lint", file(R, "skills/quality/lint/SKILL.md"), "Lint the code.")],
  },
  {
    uri: "skill://docs/code-review",
    lib: "docs",
    plugin: R,
    hint: skillHint("skill://docs/code-review"),
    entries: [
      skillEntry("skill://docs/code-review/SKILL.md", "code-review", codeReviewMd("docs"), "Review a change."),
      fileEntry("skill://docs/code-review/checklist.md", file(R, "skills/code-review/checklist.md")),
    ],
  },
  {
    uri: "skill://docs/docs",
    lib: "docs",
    plugin: R,
    hint: "It is a directory of library files: read skill://docs/_files.md.",
    entries: [fileEntry("skill://docs/docs/style.md", file(R, "docs/style.md"))],
  },
];

/** Library roots: the hint when the library shows a skill, and the children per (library, admitted). */
export const LIBRARY_ROOTS: Readonly<Record<string, readonly string[]>> = {
  [`eng:${O},${R}`]: ["code-review", "docs", "observability", "quality", "shared", "triage"],
  [`eng:${O}`]: ["observability", "shared", "triage"],
  [`eng:${R}`]: ["code-review", "docs", "quality"],
  "eng:": [],
  [`docs:${W},${R}`]: ["code-review", "docs", "editing", "guide", "quality", "release-notes"],
  [`docs:${W}`]: ["editing", "guide", "release-notes"],
  [`docs:${R}`]: ["code-review", "docs", "quality"],
  "docs:": [],
  [`dead:${B}`]: [],
  "dead:": [],
};

/** Directory addresses no scope can see: a plain folder of fallback files, a library that serves nothing. */
export const NEVER_DIRECTORIES: readonly string[] = [
  NEVER_DIRECTORY,
  "skill://dead",
  "skill://eng/notes",
  "skill://eng/prompts",
  "skill://eng/never",
  "skill://docs/observability",
];

export interface PromptRow {
  readonly name: string;
  readonly lib: Library;
  readonly plugin: string;
  readonly listing: Record<string, unknown>;
  readonly args: Record<string, string>;
  readonly text: string;
}
export const PROMPTS: readonly PromptRow[] = [
  {
    name: "docs_review",
    lib: "docs",
    plugin: R,
    listing: { name: "docs_review", description: "Review a pull request", arguments: [{ name: "pr", required: true }] },
    args: { pr: "#1" },
    text: "Review #1 against skill://docs/docs/style.md.",
  },
  {
    name: "docs_summarize",
    lib: "docs",
    plugin: W,
    listing: { name: "docs_summarize", description: "Summarise a document", arguments: [{ name: "document", required: true }] },
    args: { document: "D" },
    text: "Summarise: D",
  },
  {
    name: "eng_page",
    lib: "eng",
    plugin: O,
    listing: {
      name: "eng_page",
      description: "Page the on-call engineer",
      arguments: [{ name: "service", description: "The service that is down", required: true }],
    },
    args: { service: "api" },
    text: "Page on-call for api.",
  },
  {
    name: "eng_review",
    lib: "eng",
    plugin: R,
    listing: { name: "eng_review", description: "Review a pull request", arguments: [{ name: "pr", required: true }] },
    args: { pr: "#1" },
    text: "Review #1 against skill://eng/docs/style.md.",
  },
];

/** One row of the matrix. `sees` names each visible library and the plugins of it the scope admits. */
export interface ScopeRow {
  readonly title: string;
  /** A client's ceiling, or a union of them (what a signed-in user's matching rules grant). */
  readonly ceiling: Ceiling | null;
  readonly request: ScopeSpec;
  readonly library: string | null;
  /** The compiled `scope.plugins`, sorted; `null` admits every plugin. */
  readonly plugins: readonly string[] | null;
  readonly sees: Readonly<Partial<Record<Library, readonly string[]>>>;
}

const ALL = [B, O, R, W];
const EVERY_LIBRARY = (eng: readonly string[], docs: readonly string[], dead: readonly string[]) => ({ dead, docs, eng });

const UNION_ENG: ScopeSpec = { library: "eng", categories: ["engineering"] };
const UNION_DOCS: ScopeSpec = { library: "docs", tags: ["public"] };

export const SCOPES: readonly ScopeRow[] = [
  { title: "no scope", ceiling: null, request: {}, library: null, plugins: null, sees: EVERY_LIBRARY([O, R], [W, R], [B]) },
  { title: "library=docs", ceiling: null, request: { library: "docs" }, library: "docs", plugins: ALL, sees: { docs: [W, R] } },
  {
    title: "categories=writing",
    ceiling: null,
    request: { categories: ["writing"] },
    library: null,
    plugins: [W],
    sees: EVERY_LIBRARY([], [W], []),
  },
  {
    title: "tags all-of oncall,runbooks",
    ceiling: null,
    request: { tags: ["oncall,runbooks"] },
    library: null,
    plugins: [O],
    sees: EVERY_LIBRARY([O], [], []),
  },
  {
    title: "tags any-of review | public",
    ceiling: null,
    request: { tags: ["review", "public"] },
    library: null,
    plugins: [R, W],
    sees: EVERY_LIBRARY([R], [W, R], []),
  },
  {
    title: "a keyword as a tag (quality)",
    ceiling: null,
    request: { tags: ["quality"] },
    library: null,
    plugins: [R],
    sees: EVERY_LIBRARY([R], [R], []),
  },
  {
    title: "library=eng + tags=review",
    ceiling: null,
    request: { library: "eng", tags: ["review"] },
    library: "eng",
    plugins: [R],
    sees: { eng: [R] },
  },
  {
    title: "a client ceiling alone (docs, public)",
    ceiling: { library: "docs", tags: ["public"] },
    request: {},
    library: "docs",
    plugins: [W],
    sees: { docs: [W] },
  },
  {
    title: "a ceiling (categories=engineering) narrowed by library=docs",
    ceiling: { categories: ["engineering"] },
    request: { library: "docs" },
    library: "docs",
    plugins: [O, R],
    sees: { docs: [R] },
  },
  {
    title: "a ceiling (categories=engineering) narrowed by a keyword tag (sre)",
    ceiling: { categories: ["engineering"] },
    request: { tags: ["sre"] },
    library: null,
    plugins: [O],
    sees: EVERY_LIBRARY([O], [], []),
  },
  {
    // review-kit ships in both libraries, granted in eng only: its docs copy must stay invisible.
    title: "a union ceiling (eng engineering | docs public)",
    ceiling: { anyOf: [UNION_ENG, UNION_DOCS] },
    request: {},
    library: null,
    plugins: [O, R, W],
    sees: { eng: [O, R], docs: [W] },
  },
  {
    title: "a union ceiling narrowed by tags=review",
    ceiling: { anyOf: [UNION_ENG, UNION_DOCS] },
    request: { tags: ["review"] },
    library: null,
    plugins: [R],
    sees: { eng: [R], docs: [] },
  },
  {
    title: "a union ceiling narrowed by library=docs",
    ceiling: { anyOf: [UNION_ENG, UNION_DOCS] },
    request: { library: "docs" },
    library: "docs",
    plugins: [O, R, W],
    sees: { docs: [W] },
  },
  {
    title: "library=dead (its only plugin failed)",
    ceiling: null,
    request: { library: "dead" },
    library: "dead",
    plugins: ALL,
    sees: { dead: [B] },
  },
];

/** `<library>:<admitted>` for one visible library of a row, in the library's own plugin order. */
export function comboOf(row: ScopeRow, lib: Library): string | null {
  const admitted = row.sees[lib];
  if (admitted === undefined) return null;
  return `${lib}:${admitted.join(",")}`;
}

/** Whether a plugin's address in `lib` is visible to the row. */
export function admits(row: ScopeRow, lib: Library, plugin: string): boolean {
  return row.sees[lib]?.includes(plugin) ?? false;
}

export const LIBRARIES: readonly Library[] = ["dead", "docs", "eng"];
