// On the real collections (../shared/corpora) every generated document a client can reach from the listing is at
// most 32 KB, and every served skill's SKILL.md is at most three reads away. Skipped when the corpora are absent.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { FULL_SCOPE, listingRows, MAX_DOCUMENT_BYTES, resolve, visibleSkills } from "../../src/resolve/index.js";
import { formatSkillMdUri } from "../../src/address/index.js";
import { tempDir } from "../support/temp.js";
import { startExampleService } from "../support/transports.js";

const CORPORA = path.resolve(import.meta.dirname, "../../../shared/corpora");
const present = existsSync(CORPORA);

describe.runIf(present)("bounded documents on the real collections", () => {
  test("wshobson-agents and k-dense as flat libraries: every document within 32 KB, every skill within 3 reads", async () => {
    const names = readdirSync(path.join(CORPORA, "wshobson-agents/plugins")).sort();
    const plugins = names.map(
      (name) => `  - name: ${name}\n    source: ${pathToFileURL(path.join(CORPORA, "wshobson-agents/plugins", name)).href}\n`,
    );
    const kdense = pathToFileURL(path.join(CORPORA, "k-dense-scientific")).href;
    const config = path.join(tempDir("skillshelf-bounded-"), "skillshelf.yaml");
    writeFileSync(
      config,
      `plugins:\n${plugins.join("")}  - name: scientific\n    source: ${kdense}\n    skills: ["scientific-skills/*"]\n` +
        `libraries:\n  - name: agents\n    plugins: [${names.join(", ")}]\n  - name: science\n    plugins: [scientific]\n`,
    );
    const service = await startExampleService(config);
    try {
      const shelf = service.current;
      const depth = new Map<string, number>();
      const queue = listingRows(shelf, FULL_SCOPE, false).map((row) => ({ uri: row.uri, reads: 1 }));
      let largest = 0;
      while (queue.length > 0) {
        const { uri, reads } = queue.shift() as { uri: string; reads: number };
        if (depth.has(uri)) continue;
        depth.set(uri, reads);
        if (uri.endsWith("/SKILL.md")) continue;
        const answer = resolve(shelf, FULL_SCOPE, uri);
        expect(answer.kind, uri).toBe("document");
        const text = answer.kind === "document" ? answer.text : "";
        largest = Math.max(largest, Buffer.byteLength(text));
        for (const match of text.matchAll(/^(skill:\/\/\S+?):?(?: |$)/gm)) queue.push({ uri: match[1] as string, reads: reads + 1 });
      }
      expect(largest).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
      // The flat library of wshobson (174 skills at its root) does not fit one index: it is read in pages.
      expect(depth.get("skill://agents/_index-1.md")).toBe(2);
      const skills = visibleSkills(shelf, FULL_SCOPE);
      // k-dense serves 127 of its 128 under strict naming: markdown-mermaid-writing's metadata is a list MCP hosts refuse.
      expect(skills.length).toBe(174 + 127);
      for (const skill of skills) expect(depth.get(formatSkillMdUri(skill.library, skill.address)), skill.name).toBeLessThanOrEqual(3);
    } finally {
      await service.close();
    }
  });
});
