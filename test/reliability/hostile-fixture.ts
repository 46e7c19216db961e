// A shelf built to be attacked: secrets outside the plugin root, hidden files inside it, a symlink out of the
// root (file and directory), symlinks into a sibling plugin the caller may not see, and folders whose names are
// made of dots and escapes. Every secret carries a marker, so an escape is any answer that contains one.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Text that must never reach a caller scoped to library `lib`. */
export const MARKERS = {
  outside: "MARKER-OUTSIDE-9f2c61",
  hidden: "MARKER-HIDDEN-47ab0e",
  sibling: "MARKER-SIBLING-d81f3a",
} as const;
/** Text the caller may read: proves the server is serving at all. */
export const ALPHA_BODY = "ALPHA-BODY-55e0c4";

export interface HostileFixture {
  /** The temporary directory holding everything (its path must never reach a client either). */
  readonly dir: string;
  readonly config: string;
  remove(): void;
}

const skill = (name: string, body: string): string => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n\n${body}\n`;

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The fixture; anonymous callers are served under the ceiling `{library: lib}` (plugin `pa` only). */
export function writeHostileFixture(): HostileFixture {
  const dir = mkdtempSync(path.join(tmpdir(), "skillshelf-hostile-"));
  const repo = path.join(dir, "repo");
  const pa = path.join(repo, "plugin-a");
  const pb = path.join(repo, "plugin-b");
  put(path.join(dir, "secret.txt"), `${MARKERS.outside}\n`);
  put(path.join(repo, "secret-in-repo.md"), `${MARKERS.outside}\n`);
  put(path.join(pa, ".env"), `TOKEN=${MARKERS.hidden}\n`);
  put(path.join(pa, "skills", "alpha", "SKILL.md"), skill("alpha", `${ALPHA_BODY} See [notes](notes.md).`));
  put(path.join(pa, "skills", "alpha", "notes.md"), "notes\n");
  put(path.join(pa, "skills", "alpha", ".secret.md"), `${MARKERS.hidden}\n`);
  put(path.join(pa, "skills", "alpha", ".git", "config"), `${MARKERS.hidden}\n`);
  // Dot-named and escape-named folders inside the skill: legal or hidden, never a way out.
  put(path.join(pa, "skills", "alpha", "do..ts", "x.md"), "dots inside a name\n");
  put(path.join(pa, "skills", "alpha", "...", "y.md"), "three dots\n");
  put(path.join(pa, "skills", "alpha", "..data", "z.md"), `${MARKERS.hidden}\n`);
  put(path.join(pa, "skills", "alpha", "%2e%2e", "w.md"), "a folder literally named %2e%2e\n");
  put(path.join(pa, "skills", "gamma", "SKILL.md"), skill("gamma", "gamma"));
  put(path.join(pb, "skills", "beta", "SKILL.md"), skill("beta", MARKERS.sibling));
  put(path.join(pb, "skills", "beta", "private.md"), `${MARKERS.sibling}\n`);
  // Symlinks out of the root, and into the sibling plugin.
  symlinkSync(path.join(dir, "secret.txt"), path.join(pa, "skills", "alpha", "link-out.md"));
  symlinkSync(dir, path.join(pa, "skills", "alpha", "link-dir-out"));
  symlinkSync(path.join(pb, "skills", "beta"), path.join(pa, "skills", "alpha", "link-sibling"));
  symlinkSync(path.join(pb, "skills", "beta", "private.md"), path.join(pa, "skills", "alpha", "link-sibling.md"));
  symlinkSync(path.join("..", "..", "..", "plugin-b", "skills", "beta"), path.join(pa, "skills", "gamma", "rel-sibling"));
  const config = path.join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      "plugins:",
      `  - {name: pa, source: ${JSON.stringify(pa)}}`,
      `  - {name: pb, source: ${JSON.stringify(pb)}}`,
      "libraries:",
      "  - {name: lib, plugins: [pa]}",
      "  - {name: other, plugins: [pb]}",
      "anonymous: {scope: {library: lib}}",
      "",
    ].join("\n"),
  );
  return { dir, config, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
