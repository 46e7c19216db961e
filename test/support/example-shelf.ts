// What the bundled example shelf (plugins.example.yaml + examples/) must serve. The indexes, listing rows and
// hints are written out literally; file bodies, sizes and digests are computed from the example tree on disk
// with the §2.3 placeholder rule, so the expectations stay independent of the code under test.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { REPO_ROOT } from "./process.js";
import { sha256 } from "./digest.js";

export const ADVICE =
  "Read a folder's _index.md to see what it holds, a skill's SKILL.md for its instructions, and the skill's _manifest for the other files it ships.";
export const NO_HINT_ADVICE =
  "Start from the resource listing (resources/list, or the list_resources tool) to see what this server serves.";

export interface Row {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly mimeType: string;
}

const md = (uri: string, name: string, description: string): Row => ({ uri, name, description, mimeType: "text/markdown" });

/** §4.4: indexes, not skills. */
export const LISTING: readonly Row[] = [
  md("skill://engineering/_index.md", "engineering/_index.md", "Library index: 3 skills. How we build and run software"),
  md("skill://engineering/observability/_index.md", "engineering/observability/_index.md", "Folder index: 2 skills."),
  md("skill://engineering/_files.md", "engineering/_files.md", "1 library file outside every skill."),
  md("skill://oncall/_index.md", "oncall/_index.md", "Library index: 3 skills. Everything tagged for the on-call rotation"),
  md("skill://oncall/observability/_index.md", "oncall/observability/_index.md", "Folder index: 2 skills."),
  md("skill://oncall/_files.md", "oncall/_files.md", "1 library file outside every skill."),
  md("skill://writing/_index.md", "writing/_index.md", "Library index: 2 skills. How we write for users"),
  md("skill://writing/release-notes/_index.md", "writing/release-notes/_index.md", "Folder index: 1 skill."),
];

const REVIEW = "Review a change for correctness, tests and style before it is merged.";
const LOGS = "Query service logs to find the first error of an incident.";
const TRACES = "Follow one request across services with its trace id.";
const RELEASE_NOTES = "Write release notes for users from a list of merged changes.";
const CHANGELOG = "Keep CHANGELOG.md in the keep-a-changelog format.";

/** `skills=full` appends one row per skill (its frontmatter name and description), sorted by URI. */
export const FULL_LISTING: readonly Row[] = [
  ...LISTING,
  md("skill://engineering/code-review/SKILL.md", "code-review", REVIEW),
  md("skill://engineering/observability/logs/SKILL.md", "logs", LOGS),
  md("skill://engineering/observability/traces/SKILL.md", "traces", TRACES),
  md("skill://oncall/code-review/SKILL.md", "code-review", REVIEW),
  md("skill://oncall/observability/logs/SKILL.md", "logs", LOGS),
  md("skill://oncall/observability/traces/SKILL.md", "traces", TRACES),
  md("skill://writing/release-notes/SKILL.md", "release-notes", RELEASE_NOTES),
  md("skill://writing/release-notes/changelog/SKILL.md", "changelog", CHANGELOG),
];

/** §4.1 and §4.2, byte for byte. */
export const DOCUMENTS: Readonly<Record<string, string>> = {
  "skill://engineering/_index.md": `# engineering — 3 skills

skill://engineering/observability/_index.md: 2 skills
skill://engineering/code-review/SKILL.md: ${REVIEW}
skill://engineering/_files.md: 1 library file

${ADVICE}
`,
  "skill://engineering/observability/_index.md": `# engineering/observability — 2 skills

skill://engineering/observability/logs/SKILL.md: ${LOGS}
skill://engineering/observability/traces/SKILL.md: ${TRACES}

${ADVICE}
`,
  "skill://engineering/_files.md": `# engineering — 1 library file

These files sit outside every skill; skills cite them, so read one when a skill points to it.

skill://engineering/shared/style-guide.md
`,
  "skill://oncall/_index.md": `# oncall — 3 skills

skill://oncall/observability/_index.md: 2 skills
skill://oncall/code-review/SKILL.md: ${REVIEW}
skill://oncall/_files.md: 1 library file

${ADVICE}
`,
  "skill://oncall/observability/_index.md": `# oncall/observability — 2 skills

skill://oncall/observability/logs/SKILL.md: ${LOGS}
skill://oncall/observability/traces/SKILL.md: ${TRACES}

${ADVICE}
`,
  "skill://oncall/_files.md": `# oncall — 1 library file

These files sit outside every skill; skills cite them, so read one when a skill points to it.

skill://oncall/shared/style-guide.md
`,
  "skill://writing/_index.md": `# writing — 2 skills

skill://writing/release-notes/_index.md: 1 skill
skill://writing/release-notes/SKILL.md: ${RELEASE_NOTES}

${ADVICE}
`,
  "skill://writing/release-notes/_index.md": `# writing/release-notes — 1 skill

skill://writing/release-notes/changelog/SKILL.md: ${CHANGELOG}

${ADVICE}
`,
};

export interface ExampleSkill {
  /** The SKILL.md URI. */
  readonly uri: string;
  readonly library: string;
  /** `<folder>/<name>` below the library. */
  readonly address: string;
  /** The skill directory, relative to the repository root. */
  readonly dir: string;
}

const ENG = "examples/engineering-kit/skills";
const WRITING = "examples/writing-kit/skills";
const skill = (library: string, address: string, dir: string): ExampleSkill => ({
  uri: `skill://${library}/${address}/SKILL.md`,
  library,
  address,
  dir,
});

/** Every served skill, sorted by URI (the order of skills/list). */
export const SKILLS: readonly ExampleSkill[] = [
  skill("engineering", "code-review", `${ENG}/code-review`),
  skill("engineering", "observability/logs", `${ENG}/observability/logs`),
  skill("engineering", "observability/traces", `${ENG}/observability/traces`),
  skill("oncall", "code-review", `${ENG}/code-review`),
  skill("oncall", "observability/logs", `${ENG}/observability/logs`),
  skill("oncall", "observability/traces", `${ENG}/observability/traces`),
  skill("writing", "release-notes", `${WRITING}/release-notes`),
  skill("writing", "release-notes/changelog", `${WRITING}/release-notes/changelog`),
];

export function skillByUri(uri: string): ExampleSkill {
  const found = SKILLS.find((s) => s.uri === uri);
  if (found === undefined) throw new Error(`not an example skill: ${uri}`);
  return found;
}

/** Every file below `dir` (nested skills' files included), relative, sorted in code-unit order. */
export function filesOf(dir: string): string[] {
  const abs = path.join(REPO_ROOT, dir);
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(abs, rel))) {
      const child = rel === "" ? name : `${rel}/${name}`;
      if (statSync(path.join(abs, child)).isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk("");
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** §2.3: placeholders are replaced in a SKILL.md body only; the frontmatter is served verbatim. */
export function substitutePlaceholders(raw: string, library: string, address: string): string {
  const match = FRONTMATTER.exec(raw);
  const head = match === null ? "" : match[0];
  const body = raw.slice(head.length);
  return (
    head + body.split("${CLAUDE_PLUGIN_ROOT}").join(`skill://${library}`).split("${CLAUDE_SKILL_DIR}").join(`skill://${library}/${address}`)
  );
}

/** The frontmatter of a SKILL.md, parsed afresh with the `yaml` package. */
export function parseFrontmatter(text: string): unknown {
  const match = FRONTMATTER.exec(text);
  if (match === null) throw new Error("no frontmatter");
  return parseYaml(match[1] as string);
}

/** The exact bytes a read of `path` inside `skill` must return. */
export function servedBytes(skill: ExampleSkill, rel: string): Buffer {
  const raw = readFileSync(path.join(REPO_ROOT, skill.dir, rel));
  if (path.posix.basename(rel) !== "SKILL.md") return raw;
  // A nested skill's SKILL.md is substituted with the nested skill's own address.
  const nestedDir = path.posix.dirname(rel);
  const address = nestedDir === "." ? skill.address : `${skill.address}/${nestedDir}`;
  return Buffer.from(substitutePlaceholders(raw.toString("utf8"), skill.library, address), "utf8");
}

export function skillBase(skill: ExampleSkill): string {
  return `skill://${skill.library}/${skill.address}`;
}

export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: unknown;
  readonly resources: readonly { readonly uri: string; readonly digest: string; readonly size: number }[];
}

/** The SEP-2640 entry the server must publish for `skill`. */
export function expectedEntry(skill: ExampleSkill): SkillEntry {
  return {
    uri: skill.uri,
    frontmatter: parseFrontmatter(readFileSync(path.join(REPO_ROOT, skill.dir, "SKILL.md"), "utf8")),
    resources: filesOf(skill.dir).map((rel) => {
      const bytes = servedBytes(skill, rel);
      return { uri: `${skillBase(skill)}/${rel}`, digest: sha256(bytes), size: bytes.length };
    }),
  };
}

/** §4.3: the `_manifest` JSON of `skill`. */
export function expectedManifest(skill: ExampleSkill): { skill: string; files: { path: string; size: number; hash: string }[] } {
  return {
    skill: `${skill.library}/${skill.address}`,
    files: filesOf(skill.dir).map((rel) => {
      const bytes = servedBytes(skill, rel);
      return { path: rel, size: bytes.length, hash: sha256(bytes) };
    }),
  };
}

export function exampleFile(rel: string): Buffer {
  return readFileSync(path.join(REPO_ROOT, rel));
}

/** §2.4: a directory read names the file(s) to read instead, in these exact words. */
export const HINTS: readonly { readonly uri: string; readonly message: string }[] = [
  { uri: "skill://engineering", message: "Not found: skill://engineering. It is a library: read skill://engineering/_index.md." },
  { uri: "skill://engineering/", message: "Not found: skill://engineering/. It is a library: read skill://engineering/_index.md." },
  {
    uri: "skill://engineering/observability",
    message: "Not found: skill://engineering/observability. It is a folder: read skill://engineering/observability/_index.md.",
  },
  {
    uri: "skill://engineering/code-review",
    message:
      "Not found: skill://engineering/code-review. It is a skill: read skill://engineering/code-review/SKILL.md or skill://engineering/code-review/_manifest.",
  },
  {
    uri: "skill://writing/release-notes",
    message:
      "Not found: skill://writing/release-notes. It is a skill and a folder: read skill://writing/release-notes/SKILL.md, skill://writing/release-notes/_manifest or skill://writing/release-notes/_index.md.",
  },
  {
    uri: "skill://writing/release-notes/changelog",
    message:
      "Not found: skill://writing/release-notes/changelog. It is a skill: read skill://writing/release-notes/changelog/SKILL.md or skill://writing/release-notes/changelog/_manifest.",
  },
  {
    uri: "skill://engineering/code-review/references",
    message:
      "Not found: skill://engineering/code-review/references. It is a directory inside a skill: read skill://engineering/code-review/_manifest.",
  },
  {
    uri: "skill://engineering/shared",
    message: "Not found: skill://engineering/shared. It is a directory of library files: read skill://engineering/_files.md.",
  },
];

/** Addresses that are nothing at all: not found, no hint, never an internal error. */
export const ABSENT: readonly string[] = [
  "skill://engineering/nope.md",
  "skill://nope/x",
  "not-a-uri",
  "skill://",
  "SKILL://engineering/_index.md",
  "skill://engineering/%zz",
  "skill://engineering/a%2fb",
  "skill://engineering/code-review/.hidden",
  // Dot segments are clamped at the library: no number of `..` reaches another library.
  "skill://other/../engineering/_index.md",
  // The fallback never reaches into a skill directory, served or skipped.
  "skill://engineering/skills/code-review/SKILL.md",
  "skill://writing/skills/Bad_Name/SKILL.md",
  "skill://engineering/.claude-plugin/plugin.json",
];

export interface DirEntry {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
  readonly description?: string;
}

const dir = (uri: string): DirEntry => ({ uri, name: uri.slice(uri.lastIndexOf("/") + 1), mimeType: "inode/directory" });
const file = (uri: string, mimeType: string, size: number): DirEntry => ({
  uri,
  name: uri.slice(uri.lastIndexOf("/") + 1),
  mimeType,
  size,
});
const skillMdRow = (s: ExampleSkill, description: string): DirEntry => ({
  uri: s.uri,
  name: s.address.slice(s.address.lastIndexOf("/") + 1),
  mimeType: "text/markdown",
  size: servedBytes(s, "SKILL.md").length,
  description,
});
const sizeOf = (rel: string): number => exampleFile(rel).length;

/** SEP-2640 `resources/directory/read` at every level of the example shelf. */
export const DIRECTORIES: Readonly<Record<string, readonly DirEntry[]>> = {
  "skill://engineering": [
    dir("skill://engineering/code-review"),
    dir("skill://engineering/observability"),
    dir("skill://engineering/shared"),
  ],
  "skill://engineering/observability": [dir("skill://engineering/observability/logs"), dir("skill://engineering/observability/traces")],
  "skill://engineering/code-review": [
    skillMdRow(skillByUri("skill://engineering/code-review/SKILL.md"), REVIEW),
    dir("skill://engineering/code-review/references"),
    dir("skill://engineering/code-review/scripts"),
  ],
  "skill://engineering/code-review/references": [
    file("skill://engineering/code-review/references/checklist.md", "text/markdown", sizeOf(`${ENG}/code-review/references/checklist.md`)),
  ],
  "skill://engineering/code-review/scripts": [
    file("skill://engineering/code-review/scripts/lint.sh", "application/x-sh", sizeOf(`${ENG}/code-review/scripts/lint.sh`)),
  ],
  "skill://engineering/shared": [
    file("skill://engineering/shared/style-guide.md", "text/markdown", sizeOf("examples/engineering-kit/shared/style-guide.md")),
  ],
  "skill://oncall/code-review": [
    skillMdRow(skillByUri("skill://oncall/code-review/SKILL.md"), REVIEW),
    dir("skill://oncall/code-review/references"),
    dir("skill://oncall/code-review/scripts"),
  ],
  "skill://writing": [dir("skill://writing/release-notes")],
  "skill://writing/release-notes": [
    skillMdRow(skillByUri("skill://writing/release-notes/SKILL.md"), RELEASE_NOTES),
    dir("skill://writing/release-notes/assets"),
    dir("skill://writing/release-notes/changelog"),
    dir("skill://writing/release-notes/templates"),
  ],
  "skill://writing/release-notes/assets": [
    file("skill://writing/release-notes/assets/logo.png", "image/png", sizeOf(`${WRITING}/release-notes/assets/logo.png`)),
  ],
  "skill://writing/release-notes/changelog": [skillMdRow(skillByUri("skill://writing/release-notes/changelog/SKILL.md"), CHANGELOG)],
};

export const PROMPTS = [
  {
    name: "engineering_review",
    description: "Review the change named in the arguments",
    arguments: [{ name: "arguments", description: "<branch or PR>", required: false }],
  },
  {
    name: "oncall_review",
    description: "Review the change named in the arguments",
    arguments: [{ name: "arguments", description: "<branch or PR>", required: false }],
  },
  {
    name: "writing_announce",
    description: "Announce a release in the team channel",
    arguments: [
      { name: "version", description: "the version number", required: false },
      { name: "channel", description: "the channel name", required: false },
    ],
  },
  {
    name: "writing_summarize",
    description: "Summarise a document for a given audience",
    arguments: [
      { name: "document", description: "The text to summarise", required: true },
      { name: "audience", description: "Who will read the summary", required: false },
    ],
  },
] as const;

/** prompts/get of each example prompt: the arguments sent and the exact text rendered. */
export const RENDERED: readonly {
  readonly name: string;
  readonly args: Record<string, string>;
  readonly description: string;
  readonly text: string;
}[] = [
  {
    name: "engineering_review",
    args: { arguments: "main" },
    description: "Review the change named in the arguments",
    // claude dialect: $ARGUMENTS, then ${CLAUDE_PLUGIN_ROOT} becomes skill://<library>.
    text: "Review main with the skill at skill://engineering/code-review/SKILL.md.",
  },
  {
    name: "oncall_review",
    args: { arguments: "PR 7" },
    description: "Review the change named in the arguments",
    text: "Review PR 7 with the skill at skill://oncall/code-review/SKILL.md.",
  },
  {
    name: "writing_summarize",
    args: { document: "The release is out." },
    description: "Summarise a document for a given audience",
    // The declared default fills `audience`.
    text: "Summarise the following for engineers:\n\nThe release is out.",
  },
  {
    name: "writing_summarize",
    args: { document: "D", audience: "support" },
    description: "Summarise a document for a given audience",
    text: "Summarise the following for support:\n\nD",
  },
  {
    name: "writing_announce",
    args: { version: "1.2.0", channel: "#releases" },
    description: "Announce a release in the team channel",
    text: "Write a short announcement of release 1.2.0 for #releases.",
  },
];

export const TOOL_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const RESOURCE_TOOL_NAMES = ["list_resources", "read_resource"];
export const PROMPT_TOOL_NAMES = ["list_prompts", "get_prompt"];
