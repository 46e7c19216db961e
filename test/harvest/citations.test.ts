// The citation audit's parse: marked's lexer decides what is a link, so code never cites and reference-style links do.
import { expect, test } from "vitest";
import { findCitations } from "../../src/harvest/citations.js";

test("links and images in prose, lists, quotes and tables cite; code spans, fences and indented code do not", () => {
  const body = [
    'See `[name](relative-url)` and [a](a.md) and ![diagram](img/x.png "title").',
    "",
    "Reference-style: [one][r1] and [r2].",
    "",
    "[r1]: refs/one.md",
    "[r2]: <refs/two words.md>",
    "[unused]: refs/unused.md",
    "",
    "```bash",
    "cat [x](in-fence.md)",
    "python ${CLAUDE_SKILL_DIR}/scripts/run.py",
    "```",
    "",
    "    [y](indented.md)",
    "",
    "- item [z](list/z.md)",
    "",
    "> quote [q](q.md)",
    "",
    "| a | b |",
    "|---|---|",
    "| [t](table.md) | x |",
    "",
    "[web](https://example.com) [anchor](#usage) [templates/](templates/) [again](a.md)",
  ].join("\n");
  expect(findCitations(body)).toEqual([
    "a.md",
    "img/x.png",
    "refs/one.md",
    "refs/two words.md",
    "list/z.md",
    "q.md",
    "table.md",
    "https://example.com",
    "#usage",
    "templates/",
    "${CLAUDE_SKILL_DIR}/scripts/run.py",
  ]);
});

test("an empty body cites nothing", () => {
  expect(findCitations("")).toEqual([]);
});

test("placeholder paths end at whitespace, quotes, brackets and separators; trailing sentence punctuation is cut", () => {
  const body = [
    "Run ${CLAUDE_SKILL_DIR}/a.sh. Then ${CLAUDE_PLUGIN_ROOT}/b.md: done?!",
    "Quoted \"${CLAUDE_SKILL_DIR}/c.sh\" and '${CLAUDE_SKILL_DIR}/d.sh' and `${CLAUDE_SKILL_DIR}/e.sh`.",
    "Listed ${CLAUDE_SKILL_DIR}/f.md,${CLAUDE_SKILL_DIR}/g.md;${CLAUDE_SKILL_DIR}/h.md <${CLAUDE_SKILL_DIR}/i.md>",
    "[j](${CLAUDE_SKILL_DIR}/j.md) [k] ${CLAUDE_SKILL_DIR}/k.md] ${CLAUDE_SKILL_DIR}/l.md!?",
    "Not one: ${CLAUDE_SKILLS_DIR}/m.md, ${claude_skill_dir}/n.md, $CLAUDE_SKILL_DIR/o.md.",
    "Again ${CLAUDE_SKILL_DIR}/a.sh",
  ].join("\n");
  expect(findCitations(body)).toEqual([
    "${CLAUDE_SKILL_DIR}/j.md",
    "${CLAUDE_SKILL_DIR}/a.sh",
    "${CLAUDE_PLUGIN_ROOT}/b.md",
    "${CLAUDE_SKILL_DIR}/c.sh",
    "${CLAUDE_SKILL_DIR}/d.sh",
    "${CLAUDE_SKILL_DIR}/e.sh",
    "${CLAUDE_SKILL_DIR}/f.md",
    "${CLAUDE_SKILL_DIR}/g.md",
    "${CLAUDE_SKILL_DIR}/h.md",
    "${CLAUDE_SKILL_DIR}/i.md",
    "${CLAUDE_SKILL_DIR}/k.md",
    "${CLAUDE_SKILL_DIR}/l.md",
  ]);
});

test("{baseDir} is the skill's folder like ${CLAUDE_SKILL_DIR}: its paths cite in prose, code spans and fences", () => {
  const body = [
    "Read `{baseDir}/references/api.md` first.",
    "See {baseDir}/references/b.md. Then [c]({baseDir}/c.md).",
    "```bash",
    "python3 {baseDir}/scripts/run.py",
    "```",
    "Not one: {basedir}/d.md, {BaseDir}/e.md, {baseDir }/f.md, $baseDir/g.md.",
  ].join("\n");
  expect(findCitations(body)).toEqual([
    "{baseDir}/c.md",
    "{baseDir}/references/api.md",
    "{baseDir}/references/b.md",
    "{baseDir}/scripts/run.py",
  ]);
});

test("links in table headers, nested lists and emphasis cite; an empty target does not", () => {
  const body = [
    "| [h](h.md) | b |",
    "|---|---|",
    "| x | [c](c.md) |",
    "",
    "- outer",
    "  - inner [n](nested.md)",
    "",
    "*[e](em.md)* and [empty]() and **![i](i.png)**",
  ].join("\n");
  expect(findCitations(body)).toEqual(["h.md", "c.md", "nested.md", "em.md", "i.png"]);
});

test("a body is lexed only when it may hold a link: every kind of link still cites, and text without one is not lexed", () => {
  // Each needs one of the prefilter's marks: a bracket, an angle bracket, a scheme, www. or an e-mail address.
  expect(findCitations("Run [the script](scripts/a.sh).")).toEqual(["scripts/a.sh"]);
  expect(findCitations("See [the guide][g].\n\n[g]: docs/guide.md\n")).toEqual(["docs/guide.md"]);
  expect(findCitations("Open <skill://lib/tools/run.sh> first.")).toEqual(["skill://lib/tools/run.sh"]);
  expect(findCitations("Docs at www.example.com today.")).toEqual(["http://www.example.com"]);
  expect(findCitations("Docs at https://example.com/a today.")).toEqual(["https://example.com/a"]);
  expect(findCitations("Write to ops@example.com.")).toEqual(["mailto:ops@example.com"]);
  // Without any of them marked finds no link either (the prefilter only skips work): parentheses, paths, colons.
  const plain = "Run scripts/a.sh (see docs/guide.md): then `tools/run.sh` and *notes.md* - done.\n\n    indented/code.md\n";
  expect(findCitations(plain)).toEqual([]);
  expect(findCitations(`${plain}\${CLAUDE_SKILL_DIR}/scripts/b.sh`)).toEqual(["${CLAUDE_SKILL_DIR}/scripts/b.sh"]);
});
