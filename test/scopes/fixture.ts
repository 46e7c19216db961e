// The scopes fixture: three libraries over four plugins, written to a fresh temp dir at test time with its
// config beside it. One plugin (review-kit) is in two libraries; one (broken-kit) points at a missing folder,
// so library `dead` exists but serves nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sha256 } from "../support/digest.js";

/** Environment variables holding the clients' tokens, and values no log line may ever contain. */
export const TOKEN_ENV = {
  support: "SS_SCOPES_SUPPORT_TOKEN",
  eng: "SS_SCOPES_ENG_TOKEN",
  public: "SS_SCOPES_PUBLIC_TOKEN",
  admin: "SS_SCOPES_ADMIN_TOKEN",
} as const;
export const TOKENS = {
  support: "tok-support-7c1e9a4b2f",
  eng: "tok-eng-0d3b6f8e51",
  public: "tok-public-a94c27e0d6",
  admin: "tok-admin-5e8f1b3c70",
} as const;

const skillMd = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}\n`;

/** Every file of the fixture, by path from the fixture root. */
export const FILES: Readonly<Record<string, string>> = {
  // ops-kit: category engineering, tags oncall+runbooks, keyword sre; library files under shared/.
  "plugins/ops-kit/skills/triage/SKILL.md": skillMd("triage", "Triage a page.", "Start with the runbook."),
  "plugins/ops-kit/skills/observability/logs/SKILL.md": skillMd("logs", "Query logs.", "See [LogQL](references/logql.md)."),
  "plugins/ops-kit/skills/observability/logs/references/logql.md": "# LogQL\n",
  "plugins/ops-kit/skills/observability/logs/deep/SKILL.md": skillMd("deep", "Deep log forensics.", "Go deeper."),
  "plugins/ops-kit/skills/observability/metrics/SKILL.md": skillMd("metrics", "Query metrics.", "Use PromQL."),
  "plugins/ops-kit/shared/runbook.md": "# Runbook\n",
  "plugins/ops-kit/notes/oncall.md": "# On-call notes\n",
  "plugins/ops-kit/prompts/page.md":
    "---\ndescription: Page the on-call engineer\narguments:\n  - name: service\n    description: The service that is down\n    required: true\n---\nPage on-call for {{ service }}.\n",
  "plugins/ops-kit/.env": "SECRET=ops\n",
  // review-kit: category engineering, tag review, keyword quality; in libraries eng and docs.
  "plugins/review-kit/skills/code-review/SKILL.md": skillMd(
    "code-review",
    "Review a change.",
    "Follow ${CLAUDE_PLUGIN_ROOT}/docs/style.md.",
  ),
  "plugins/review-kit/skills/code-review/checklist.md": "- [ ] tests\n",
  "plugins/review-kit/skills/quality/lint/SKILL.md": skillMd("lint", "Lint the code.", "Run the linter."),
  "plugins/review-kit/docs/style.md": "# Style\n",
  "plugins/review-kit/prompts/review.md":
    "---\ndescription: Review a pull request\narguments:\n  - name: pr\n    required: true\n---\nReview {{ pr }} against ${CLAUDE_PLUGIN_ROOT}/docs/style.md.\n",
  // writing-kit: category writing, tags docs+public, keyword prose.
  "plugins/writing-kit/skills/release-notes/SKILL.md": skillMd("release-notes", "Write release notes.", "Use the template."),
  "plugins/writing-kit/skills/release-notes/assets/template.md": "## Added\n",
  "plugins/writing-kit/skills/editing/proofread/SKILL.md": skillMd("proofread", "Proofread a text.", "Read it aloud."),
  "plugins/writing-kit/guide/tone.md": "# Tone\n",
  "plugins/writing-kit/README.md": "# Writing kit\n",
  "plugins/writing-kit/prompts/summarize.md":
    "---\ndescription: Summarise a document\narguments:\n  - name: document\n    required: true\n---\nSummarise: {{ document }}\n",
};

export const CONFIG_YAML = `# scopes fixture
plugins:
  - name: ops-kit
    source: ./plugins/ops-kit
    description: Operations
    category: engineering
    tags: [oncall, runbooks]
    keywords: [sre]
    files: ["shared/**"]
    watch: false
  - name: review-kit
    source: ./plugins/review-kit
    description: Reviews
    category: engineering
    tags: [review]
    keywords: [quality]
    files: ["docs/**"]
    watch: false
  - name: writing-kit
    source: ./plugins/writing-kit
    description: Writing
    category: writing
    tags: [docs, public]
    keywords: [prose]
    files: ["guide/**"]
    watch: false
  - name: broken-kit
    source: ./plugins/missing-kit
    description: Gone
    category: legacy
    tags: [old]
    watch: false
libraries:
  - name: eng
    description: Engineering practice
    plugins: [ops-kit, review-kit]
  - name: docs
    description: Writing for users
    plugins: [writing-kit, review-kit]
  - name: dead
    description: Nothing works here
    plugins: [broken-kit]
clients:
  - name: support-bot
    token: {env: ${TOKEN_ENV.support}}
    scope: {library: docs, tags: [public]}
  - name: eng-bot
    token: {env: ${TOKEN_ENV.eng}}
    scope: {categories: [engineering]}
  - name: public-bot
    token: {env: ${TOKEN_ENV.public}}
    scope: {tags: [public]}
  - name: platform
    token: {env: ${TOKEN_ENV.admin}}
    admin: true
ttl: 0s
`;

export interface Fixture {
  /** The temp dir holding `plugins/` and `skillshelf.yaml`. */
  readonly dir: string;
  readonly configPath: string;
  remove(): void;
}

export function writeFixture(): Fixture {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-scopes-")));
  for (const [rel, content] of Object.entries(FILES)) {
    const abs = path.join(dir, ...rel.split("/"));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  const configPath = path.join(dir, "skillshelf.yaml");
  fs.writeFileSync(configPath, CONFIG_YAML);
  return { dir, configPath, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The content of a plugin file: `file("ops-kit", "shared/runbook.md")`. */
export function file(plugin: string, rel: string): string {
  const content = FILES[`plugins/${plugin}/${rel}`];
  if (content === undefined) throw new Error(`no fixture file plugins/${plugin}/${rel}`);
  return content;
}

/** A manifest exactly as §4.3 shapes it, from `[path, served text]` pairs (sorted by path here). */
export function manifest(skill: string, files: readonly (readonly [string, string])[]): string {
  const rows = [...files]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([p, text]) =>
        `    {"path": ${JSON.stringify(p)}, "size": ${Buffer.byteLength(text, "utf8")}, "hash": ${JSON.stringify(sha256(text))}}`,
    );
  return `{\n  "skill": ${JSON.stringify(skill)},\n  "files": [\n${rows.join(",\n")}\n  ]\n}\n`;
}
