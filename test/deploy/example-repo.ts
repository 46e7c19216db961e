// The git repository the deployment examples pin (deploy/kubernetes/configmap.yaml and the replicas run): made at
// test time with a fixed identity, clock and content, so its commit id is the same on every machine and the
// examples can pin it by commit, as replicas must.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: "/nonexistent",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "skillshelf examples",
  GIT_AUTHOR_EMAIL: "examples@skillshelf.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_NAME: "skillshelf examples",
  GIT_COMMITTER_EMAIL: "examples@skillshelf.invalid",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  LC_ALL: "C",
};

/** The commit the examples pin. */
export const EXAMPLE_COMMIT = "58be405978d165a0f3da8445df0d5bdd8adeb4bf";

const skill = (name: string, description: string, body: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

/** Path (in the repository) → content. */
export const EXAMPLE_FILES: Readonly<Record<string, string>> = {
  "engineering/skills/code-review/SKILL.md": skill(
    "code-review",
    "Review a change for correctness, tests and style.",
    "# Code review\n\nRead the diff, then hold it to ${CLAUDE_PLUGIN_ROOT}/shared/style-guide.md.\n",
  ),
  "engineering/skills/code-review/references/checklist.md": "# Checklist\n\n- Tests cover the change.\n- Names say what things are.\n",
  "engineering/skills/incident-response/SKILL.md": skill(
    "incident-response",
    "Run an incident from page to postmortem.",
    "# Incident response\n\nDeclare, mitigate, communicate, then write it up.\n",
  ),
  "engineering/shared/style-guide.md": "# Style guide\n\nShort functions, plain names.\n",
  "writing/skills/release-notes/SKILL.md": skill(
    "release-notes",
    "Write release notes users can act on.",
    "# Release notes\n\nLead with what changed for the reader.\n",
  ),
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Make the example repository as a bare repository at `bare` (through a work tree beside it); answers its commit. */
export function makeExampleRepo(bare: string): string {
  const work = `${bare}.work`;
  fs.mkdirSync(work, { recursive: true });
  git(work, "init", "-q", "-b", "main");
  for (const [rel, content] of Object.entries(EXAMPLE_FILES)) {
    fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
    fs.writeFileSync(path.join(work, rel), content);
  }
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "Example skills");
  const commit = git(work, "rev-parse", "HEAD");
  fs.mkdirSync(path.dirname(bare), { recursive: true });
  git(path.dirname(bare), "clone", "-q", "--bare", work, bare);
  fs.rmSync(work, { recursive: true, force: true });
  return commit;
}
