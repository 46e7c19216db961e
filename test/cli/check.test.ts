// §11 `skillshelf check`: exit 0 when clean, 1 when anything was skipped or dangles, 2 on a bad config (naming the
// file, the JSON path and the rule); `--json` prints the /health body of the one harvest it ran.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEALTH_SCHEMA } from "../../src/http/openapi.js";
import { buildAjv } from "../support/openapi.js";
import { EXAMPLE_CONFIG, runCli } from "../support/process.js";

let root: string;

function write(rel: string, text: string): string {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  return abs;
}

const skillMd = (name: string, body = `# ${name}\n`): string => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}`;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "skillshelf-check-"));
  write("clean/kit/skills/hello/SKILL.md", skillMd("hello"));
  write("clean/kit/skills/hello/references/notes.md", "# Notes\n");
  write("clean/skillshelf.yaml", "plugins:\n  - name: kit\n    source: ./kit\nlibraries:\n  - name: kit\n    plugins: [kit]\n");
  write("dangling/kit/skills/hello/SKILL.md", skillMd("hello", "Read [the notes](references/missing.md).\n"));
  write("dangling/skillshelf.yaml", "plugins:\n  - name: kit\n    source: ./kit\nlibraries:\n  - name: kit\n    plugins: [kit]\n");
  write("mine/my-skills/pdf-tools/SKILL.md", skillMd("pdf-tools"));
  write("mine/my-skills/team/review/SKILL.md", skillMd("review"));
  write("mine/empty/README.md", "# Nothing here\n");
  write("bad/bad.yaml", "plugins:\n  - name: Bad Name\n    source: ./x\n    bogus: 1\nlibraries:\n  - name: x\n    plugins: [nobody]\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("skillshelf check", () => {
  it("exits 0 and says what would be served on a clean config", async () => {
    const result = await runCli(["check", "--config", "skillshelf.yaml"], { cwd: path.join(root, "clean") });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "1 skill and 0 prompts in 1 library (ok)\n  skill://kit: 1 skill, 0 prompts, 0 library files (plugins: kit)\n",
    );
  });

  it("exits 0 on a clean directory given without a config (zero-config)", async () => {
    const result = await runCli(["check", "kit"], { cwd: path.join(root, "clean") });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe("1 skill and 0 prompts in 1 library (ok)");
  });

  it("serves a folder of skills with no config, flat or grouped", async () => {
    const result = await runCli(["check", "my-skills"], { cwd: path.join(root, "mine") });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "2 skills and 0 prompts in 1 library (ok)\n  skill://my-skills: 2 skills, 0 prompts, 0 library files (plugins: my-skills)\n",
    );
  });

  it("exits 1 and says why when nothing would be served", async () => {
    const result = await runCli(["check", "empty"], { cwd: path.join(root, "mine") });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      "0 skills and 0 prompts in 1 library (warnings: no skill served)\n" +
        "  skill://empty: 0 skills, 0 prompts, 0 library files (plugins: empty)\n" +
        "No skill would be served: no SKILL.md was found where the plugins look, or every one found was skipped (see the rows above). " +
        "Without a config, every SKILL.md under each directory is found at any depth (beside the plugins of a marketplace file the directory holds), " +
        "but in hidden folders; with one, check each plugin's skills globs.\n",
    );
  });

  it("exits 1 on the example shelf, which skips one skill on purpose, and names the skip", async () => {
    const result = await runCli(["check", "--config", EXAMPLE_CONFIG]);
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")[0]).toBe("8 skills and 4 prompts in 3 libraries (warnings: 1 skipped)");
    expect(result.stdout).toContain(
      'plugin writing-kit: skipped skills/Bad_Name: The name "Bad_Name" breaks the naming rule (1-64 characters of a-z, 0-9 and \'-\', no hyphen first or last, no \'--\'): character 1 ("B") is an upper-case letter. The nearest valid name is "bad-name".\n',
    );
  });

  it("exits 1 on a dangling citation and names it", async () => {
    const result = await runCli(["check", "--config", "skillshelf.yaml"], { cwd: path.join(root, "dangling") });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("skill://kit/hello/SKILL.md cites references/missing.md");
  });

  it("exits 2 on a bad config, naming the file, the JSON path and the rule of every error", async () => {
    const result = await runCli(["check", "--config", "bad.yaml"], { cwd: path.join(root, "bad") });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/^bad\.yaml:2: \/plugins\/0\/name: .*name/));
    expect(lines).toContainEqual(expect.stringMatching(/^bad\.yaml:4: \/plugins\/0\/bogus: unknown key 'bogus'/));
    // Nothing absolute: the file as the operator wrote it.
    expect(result.stderr).not.toContain(root);
  });

  it("exits 2 on a config file that does not exist", async () => {
    const result = await runCli(["check", "--config", "nope.yaml"], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^nope\.yaml: \/: /);
  });

  it("prints the /health body with --json, valid against the health schema", async () => {
    const result = await runCli(["check", "--config", EXAMPLE_CONFIG, "--json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    const validate = buildAjv().compile(HEALTH_SCHEMA);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(["status", "skills", "prompts", "libraries", "plugins", "fetches"]));
    expect(report).toMatchObject({
      status: "warnings",
      skills: 8,
      prompts: 4,
      plugins: { "writing-kit": { skipped: [{ path: "skills/Bad_Name" }] } },
    });
    expect(Object.keys(report["libraries"] as object).sort()).toEqual(["engineering", "oncall", "writing"]);
  });

  it("prints a clean report with --json and exits 0", async () => {
    const result = await runCli(["check", "--json", "--config", "skillshelf.yaml"], { cwd: path.join(root, "clean") });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: "ok",
      skills: 1,
      prompts: 0,
      libraries: { kit: { skills: 1, plugins: ["kit"] } },
    });
  });
});
