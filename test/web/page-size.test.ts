// No page of the web page grows with the shelf: a folder of 3,000 skills with long descriptions, 250 libraries,
// a skill of 500 files and a SKILL.md of 1 MB each page under 200 KB, and a page past the end is a precise 400.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { tempDir } from "../support/temp.js";
import { serveWeb, type Served } from "./fixture.js";

const SKILLS = 3000;
const LIBRARIES = 250;
const FILES = 500;
const LIMIT = 200_000;

function write(root: string, rel: string, content: string): void {
  const abs = path.join(root, ...rel.split("/"));
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

function writeLargeShelf(): string {
  const root = tempDir("skillshelf-web-large-");
  // Descriptions near the 1,024-character limit, full of characters that grow when escaped.
  const long = (i: number): string => `Skill ${i} <&> "quoted" & 'single' `.repeat(28).slice(0, 1000);
  for (let i = 0; i < SKILLS; i++) {
    const name = `s${String(i).padStart(4, "0")}`;
    write(root, `big/skills/many/${name}/SKILL.md`, `---\nname: ${name}\ndescription: ${JSON.stringify(long(i))}\n---\n# ${name}\n`);
  }
  write(root, "big/skills/wide/SKILL.md", "---\nname: wide\ndescription: A skill with many files.\n---\n# Wide\n");
  for (let i = 0; i < FILES; i++) write(root, `big/skills/wide/refs/${"deep/".repeat(5)}file-${String(i).padStart(3, "0")}.md`, `# ${i}\n`);
  const paragraph = "Some *emphasis* & <angle> text with a [link](https://example.org/a?b=c&d=e) in it.\n\n";
  write(
    root,
    "big/skills/huge/SKILL.md",
    `---\nname: huge\ndescription: A SKILL.md of a megabyte.\n---\n${paragraph.repeat(Math.ceil(1_000_000 / paragraph.length))}`,
  );
  write(root, "big/skills/huge/escapes.txt", `&<>"'`.repeat(200_000));
  write(
    root,
    "big/skills/wide-chars/SKILL.md",
    `---\nname: wide-chars\ndescription: Three bytes a character.\n---\n${"漢字の段落。".repeat(60_000)}\n`,
  );
  write(root, "tiny/skills/one/SKILL.md", "---\nname: one\ndescription: The one skill of every small library.\n---\n# One\n");
  const libraries = Array.from(
    { length: LIBRARIES },
    (_, i) => `  - {name: l${String(i).padStart(3, "0")}, description: ${"Library of one. ".repeat(10)}, plugins: [tiny]}`,
  );
  write(
    root,
    "skillshelf.yaml",
    [
      "plugins:",
      "  - {name: big, source: ./big, watch: false}",
      "  - {name: tiny, source: ./tiny, watch: false}",
      "libraries:",
      "  - {name: big, plugins: [big]}",
      ...libraries,
      "",
    ].join("\n"),
  );
  return path.join(root, "skillshelf.yaml");
}

describe("page sizes on a large shelf", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveWeb(writeLargeShelf(), { clients: [] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  const get = async (route: string): Promise<{ status: number; bytes: number; text: string }> => {
    const response = await send(served.origin, { path: route });
    return { status: response.status, bytes: Buffer.byteLength(response.text), text: response.text };
  };

  it("keeps every page under 200 KB, whatever the list behind it", async () => {
    const routes = [
      "/",
      "/?page=3",
      "/libraries/big",
      "/libraries/big/many",
      "/libraries/big/many?page=17",
      "/libraries/big/many?page=30",
      "/skills/big/wide",
      "/skills/big/wide?page=4",
      "/skills/big/huge",
      "/files/big/huge/SKILL.md",
      "/files/big/huge/escapes.txt",
      "/skills/big/wide-chars",
      "/files/big/wide-chars/SKILL.md",
      "/search?q=skill",
      "/status",
      "/connect",
    ];
    const sizes: Record<string, number> = {};
    for (const route of routes) {
      const page = await get(route);
      expect(page.status, route).toBe(200);
      sizes[route] = page.bytes;
    }
    for (const [route, bytes] of Object.entries(sizes)) expect(bytes, `${route}: ${bytes} bytes`).toBeLessThan(LIMIT);
  });

  it("pages a folder of 3,000 skills by 100, and says which pages exist", async () => {
    const first = await get("/libraries/big/many");
    expect(first.text.match(/<a href="\/skills\/big\/many\/s\d{4}">/g)?.length).toBe(100);
    expect(first.text).toMatch(/Page 1 of 30/);
    const last = await get("/libraries/big/many?page=30");
    expect(last.text).toContain('<a href="/skills/big/many/s2999">');
    expect(last.text).not.toContain("Next page");
    const past = await get("/libraries/big/many?page=31");
    expect([past.status, past.text.includes("There is no page 31: this list has 30 pages.")]).toEqual([400, true]);
    for (const bad of ["0", "x", "-1", "1.5"]) {
      const page = await get(`/libraries/big/many?page=${bad}`);
      expect([page.status, page.text.includes("&#39;page&#39; must be a whole number from 1 up, e.g. ?page=2")], bad).toEqual([400, true]);
    }
  });

  it("pages the libraries and a skill's files, and cuts a huge SKILL.md with a link to the whole of it", async () => {
    expect((await get("/")).text).toMatch(/Page 1 of 3/);
    const wide = await get("/skills/big/wide?page=6");
    expect(wide.text).toMatch(/Page 6 of 6/);
    expect(wide.text).toContain("refs/deep/deep/deep/deep/deep/file-499.md");
    const huge = await get("/skills/big/huge");
    expect(huge.text).toContain("The rest of this SKILL.md is too long to show here");
    expect(huge.text).toContain('<a href="/files/big/huge/SKILL.md">read it whole</a>');
  });
});
