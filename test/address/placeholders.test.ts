// Placeholder substitution in served bodies: the skill's folder, the plugin root, and a plugin-root path that lands
// inside a served skill, which is read at that skill's address.
import { describe, expect, test } from "vitest";
import { pluginRootUri, substitutePlaceholders } from "../../src/address/index.js";

const skills = new Map([
  ["skills/pdf", "skill://kit/pdf"],
  ["skills/pdf/forms", "skill://kit/pdf/forms"],
  ["skills/office/xlsx", "skill://kit/office/xlsx"],
]);
const bases = { libraryUri: "skill://kit", skillUri: "skill://kit/pdf", skills };

describe("pluginRootUri", () => {
  test.each([
    { rest: "/skills/pdf/references/x.md", uri: "skill://kit/pdf/references/x.md" },
    { rest: "/skills/pdf", uri: "skill://kit/pdf" },
    { rest: "/skills/pdf/", uri: "skill://kit/pdf" },
    { rest: "/skills/pdf/forms/a.md", uri: "skill://kit/pdf/forms/a.md" },
    { rest: "/skills/office/xlsx/SKILL.md", uri: "skill://kit/office/xlsx/SKILL.md" },
    { rest: "/skills/pdfx/a.md", uri: "skill://kit/skills/pdfx/a.md" },
    { rest: "/skills/ghost/a.md", uri: "skill://kit/skills/ghost/a.md" },
    { rest: "/shared/style.md", uri: "skill://kit/shared/style.md" },
    { rest: "-suffix/a.md", uri: "skill://kit-suffix/a.md" },
  ])("$rest => $uri", ({ rest, uri }) => {
    expect(pluginRootUri(rest, bases)).toBe(uri);
  });

  test("a whole-plugin skill (folder '') owns every plugin-root path", () => {
    const whole = { libraryUri: "skill://kit", skills: new Map([["", "skill://kit/solo"]]) };
    expect(pluginRootUri("/references/x.md", whole)).toBe("skill://kit/solo/references/x.md");
  });

  test("without skill folders every path is below the library", () => {
    expect(pluginRootUri("/skills/pdf/x.md", { libraryUri: "skill://kit" })).toBe("skill://kit/skills/pdf/x.md");
  });
});

describe("substitutePlaceholders", () => {
  test.each([
    {
      title: "a plugin-root path into a served skill is that skill's address",
      text: "Read ${CLAUDE_PLUGIN_ROOT}/skills/pdf/references/x.md.",
      out: "Read skill://kit/pdf/references/x.md.",
    },
    {
      title: "in a code span and a link too",
      text: "`${CLAUDE_PLUGIN_ROOT}/skills/office/xlsx/a.py` [b](${CLAUDE_PLUGIN_ROOT}/skills/pdf/b.md)",
      out: "`skill://kit/office/xlsx/a.py` [b](skill://kit/pdf/b.md)",
    },
    {
      title: "the rest is below the library as before",
      text: "${CLAUDE_PLUGIN_ROOT}/shared/a.md and ${CLAUDE_PLUGIN_ROOT}/scripts/run.sh",
      out: "skill://kit/shared/a.md and skill://kit/scripts/run.sh",
    },
    {
      title: "a code span naming only the placeholder talks about it and stays",
      text: "Use `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_SKILL_DIR}` or `{baseDir}` for paths; ${CLAUDE_SKILL_DIR}/a.md",
      out: "Use `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_SKILL_DIR}` or `{baseDir}` for paths; skill://kit/pdf/a.md",
    },
    {
      title: "a bare placeholder outside a code span is substituted",
      text: 'cd "${CLAUDE_PLUGIN_ROOT}" && ls {baseDir}',
      out: 'cd "skill://kit" && ls skill://kit/pdf',
    },
    { title: "no placeholder, no change", text: "plain ${HOME} $SKILL_DIR {basedir}", out: "plain ${HOME} $SKILL_DIR {basedir}" },
  ])("$title", ({ text, out }) => {
    expect(substitutePlaceholders(text, bases)).toBe(out);
  });

  test("without a skill URI (a prompt) the skill-folder spellings stay text", () => {
    expect(
      substitutePlaceholders("${CLAUDE_SKILL_DIR}/a {baseDir}/b ${CLAUDE_PLUGIN_ROOT}/skills/pdf/c", { libraryUri: "skill://kit", skills }),
    ).toBe("${CLAUDE_SKILL_DIR}/a {baseDir}/b skill://kit/pdf/c");
  });
});
