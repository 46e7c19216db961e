// naming: lenient over a fixture holding every case it bends: each served skill is exact to the Skills extension
// (the SDK's own entry builder re-derives the frontmatter from the served bytes and checks its rules), each bent
// rule is a warning row, and a skill whose folder and name both break the rule is still skipped.
import { readFileSync } from "node:fs";
import path from "node:path";
import { skillEntry } from "@modelcontextprotocol/server/ext/skills";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { configFromDirectories, loadConfig } from "../../src/config/index.js";
import { buildHealth, formatCheckReport } from "../../src/health/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { readServedFile } from "../../src/live/served-bytes.js";
import type { Skill } from "../../src/shelf/index.js";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures");
const services: ShelfService[] = [];
let lenient: ShelfService;
afterAll(async () => {
  for (const service of services.splice(0)) await service.close();
});
beforeAll(async () => {
  lenient = await ShelfService.start(await loadConfig(path.join(FIXTURE, "lenient.yaml")), () => new Date());
  services.push(lenient);
});

const skillsOf = (service: ShelfService, library: string): Map<string, Skill> =>
  new Map([...(service.current.libraries.get(library)?.skills ?? new Map<string, Skill>())]);

const LONG = "Takes notes from long meetings and turns them into decisions, owners and dates.";

describe("naming: lenient", () => {
  test("serves every bendable case, at the address its served name gives", () => {
    const skills = skillsOf(lenient, "lenient");
    expect([...skills.keys()].sort()).toEqual([
      "cloudinary-automation",
      "long-notes",
      "my-skill",
      "odd-one",
      "plain",
      "vercel-react-best-practices",
    ]);
    const names = Object.fromEntries([...skills].map(([key, skill]) => [key, [skill.frontmatter["name"], skill.dir]]));
    expect(names).toEqual({
      "cloudinary-automation": ["cloudinary-automation", "skills/cloudinary-automation"],
      "long-notes": ["long-notes", "skills/long-notes"],
      "my-skill": ["my-skill", "skills/my-skill"],
      "odd-one": ["odd-one", "skills/Odd_Folder"],
      plain: ["plain", "skills/plain"],
      "vercel-react-best-practices": ["vercel-react-best-practices", "skills/react-best-practices"],
    });
    // The files come from the folder.
    expect([...(skills.get("vercel-react-best-practices")?.files.keys() ?? [])]).toEqual(["SKILL.md", "rules/memo.md"]);
  });

  test("the served SKILL.md differs from the file only in the bent values, and its digest is of the served bytes", async () => {
    const skills = skillsOf(lenient, "lenient");
    const served = async (key: string): Promise<string> => {
      const file = skills.get(key)?.files.get("SKILL.md");
      if (file === undefined) throw new Error(key);
      const read = await readServedFile(file, true);
      if (!read.ok) throw new Error(`unreadable ${key}`);
      return Buffer.from(read.bytes).toString("utf8");
    };
    const disk = (dir: string): string => readFileSync(path.join(FIXTURE, "lenient-kit/skills", dir, "SKILL.md"), "utf8");
    expect(await served("cloudinary-automation")).toBe(
      disk("cloudinary-automation").replace("name: Cloudinary Automation", "name: cloudinary-automation"),
    );
    expect(await served("my-skill")).toBe(disk("my-skill").replace('name: "my_skill"   #', "name: my-skill   #"));
    expect(await served("plain")).toBe(disk("plain"));
    const notes = await served("long-notes");
    const description = skills.get("long-notes")?.frontmatter["description"] as string;
    expect([...description].length).toBeLessThanOrEqual(1024);
    expect(description).toBe(`${`${LONG} `.repeat(12)}Takes notes from long meetings and turns them into decisions,…`);
    expect(skills.get("long-notes")?.description).toBe(description);
    expect(notes).toBe(disk("long-notes").replace(/^description: .*$/m, `description: ${JSON.stringify(description)}`));
  });

  test("every served skill is a valid Skills-extension entry whose frontmatter and digests are the served ones", async () => {
    for (const [key, skill] of skillsOf(lenient, "lenient")) {
      const files: Record<string, Uint8Array> = {};
      for (const [rel, file] of skill.files) {
        const read = await readServedFile(file, true);
        if (!read.ok) throw new Error(`unreadable ${key}/${rel}`);
        files[rel] = read.bytes;
      }
      // Throws, naming every problem, when the name differs from the last segment or a rule is broken.
      const entry = await skillEntry(`lenient/${key}`, files);
      expect(entry.uri).toBe(`${skill.uri}/SKILL.md`);
      expect(entry.frontmatter).toEqual(skill.frontmatter);
      const digests = Object.fromEntries([...skill.files].map(([rel, file]) => [`${skill.uri}/${rel}`, file.digest]));
      expect(Object.fromEntries(entry.resources === "dynamic" ? [] : entry.resources.map((r) => [r.uri, r.digest]))).toEqual(digests);
    }
  });

  test("each bent rule is a warning row; a folder and name that both break the rule are skipped", () => {
    const health = buildHealth(lenient.current);
    expect(health.plugins["lenient-kit"]?.skipped).toEqual([
      {
        path: "skills/Bad_Folder",
        reason:
          'The name "Bad_Name" breaks the naming rule (1-64 characters of a-z, 0-9 and \'-\', no hyphen first or last, no \'--\'): character 1 ("B") is an upper-case letter. The nearest valid name is "bad-name".',
      },
    ]);
    expect(health.plugins["lenient-kit"]?.warnings).toEqual([
      {
        path: "skills/Odd_Folder/SKILL.md",
        reason: 'The name "odd-one" differs from its directory name "Odd_Folder": served (naming: lenient) at the address its name gives.',
      },
      {
        path: "skills/cloudinary-automation/SKILL.md",
        reason:
          'The name "Cloudinary Automation" breaks the naming rule: served (naming: lenient) under its directory\'s name "cloudinary-automation", which the served frontmatter\'s name is set to.',
      },
      {
        path: "skills/long-notes/SKILL.md",
        reason:
          "The description is 1119 characters long, over the limit of 1024: served (naming: lenient) with the description cut at a word boundary, in the served frontmatter and in listing and index rows.",
      },
      {
        path: "skills/my-skill/SKILL.md",
        reason:
          'The name "my_skill" breaks the naming rule: served (naming: lenient) under its directory\'s name "my-skill", which the served frontmatter\'s name is set to.',
      },
      {
        path: "skills/react-best-practices/SKILL.md",
        reason:
          'The name "vercel-react-best-practices" differs from its directory name "react-best-practices": served (naming: lenient) at the address its name gives.',
      },
    ]);
    expect(formatCheckReport(health).split("\n")[0]).toBe("6 skills and 0 prompts in 1 library (warnings: 1 skipped, 5 warnings)");
  });
});

test("strict (the default with a config, and --naming strict without one) skips what lenient bends", async () => {
  const config = configFromDirectories([path.join(FIXTURE, "lenient-kit")], FIXTURE, "strict");
  if (!config.ok) throw new Error("zero-config refused");
  const strict = await ShelfService.start(config.config, () => new Date());
  services.push(strict);
  expect([...skillsOf(strict, "lenient-kit").keys()].sort()).toEqual(["plain"]);
  const health = buildHealth(strict.current);
  expect(health.plugins["lenient-kit"]?.skipped?.map((row) => row.path)).toEqual([
    "skills/Bad_Folder",
    "skills/Odd_Folder",
    "skills/cloudinary-automation",
    "skills/long-notes",
    "skills/my-skill",
    "skills/react-best-practices",
  ]);
  expect(health.plugins["lenient-kit"]?.warnings).toBeUndefined();
});
