// What the index reads of a SKILL.md: the body below the frontmatter, its first BODY_CHARS characters; the words the
// index takes from it are those it takes from the whole body.
import { expect, test } from "vitest";
import { BODY_CHARS, bodyTerms, indexedBody, skillBody, type SkillDocument } from "../../src/search/index.js";

const doc: SkillDocument = {
  id: "skill://lib/alpha/SKILL.md",
  library: "lib",
  name: "alpha",
  description: "Use alpha.",
  folder: "alpha",
  tags: "",
  digest: "sha256:0",
};

test("the body below the frontmatter, cut at BODY_CHARS; a short body whole", () => {
  const long = `---\nname: alpha\ndescription: Use alpha.\n---\n# Alpha\n\n${"terraform drift ".repeat(200)}zebra\n`;
  const part = indexedBody(long);
  expect(part.length).toBe(BODY_CHARS);
  expect(part).toBe(skillBody(long).slice(0, BODY_CHARS));
  expect(part.startsWith("# Alpha\n\nterraform drift ")).toBe(true);
  expect(bodyTerms(doc, part)).toBe(bodyTerms(doc, skillBody(long)));
  // The word past the cut is not indexed either way.
  expect(bodyTerms(doc, skillBody(long)).split(" ")).not.toContain("zebra");
  const short = "---\nname: alpha\ndescription: Use alpha.\n---\nPlan the rollout.\n";
  expect(indexedBody(short)).toBe("Plan the rollout.\n");
});
