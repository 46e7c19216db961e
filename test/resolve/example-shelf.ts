// One shelf that exercises every rule of §2 and §4; the tests below read it as a table of cases.
import { buildTestShelf } from "./shelf-fixture.js";

export const FETCH = "github://grafana/skills";

export const EXAMPLE = buildTestShelf({
  plugins: [
    {
      id: "overview",
      skills: [{ dir: "skills/overview", description: "Start here.\n  Then   pick\ta folder.\n" }],
    },
    {
      id: "lgtm",
      fetch: FETCH,
      root: "plugins/lgtm",
      skills: [
        {
          dir: "skills/grafana-lgtm/loki",
          description: "Query logs with LogQL.",
          files: {
            "references/logql.md": "# LogQL\n",
            "references/deep/more.md": "more\n",
            "scripts/q.py": "print('q')\n",
            ".github/notes.md": "dot-github is not hidden\n",
            "_index.md": "a skill file named _index.md\n",
          },
        },
        { dir: "skills/grafana-lgtm/tempo", description: "Trace with TraceQL." },
        { dir: "skills/grafana-lgtm/mimir", description: "Metrics at scale." },
      ],
      skippedDirs: ["skills/grafana-lgtm/broken"],
      libraryFiles: { "shared/api.md": "# API\n", "shared/auth.md": "# Auth\n" },
      tree: {
        "shared/notes.md": "fallback only\n",
        "README.md": "readme\n",
        "docs/guide.md": "guide\n",
        "docs/_index.md": "a disk file named _index.md\n",
        "docs/_files.md": "a disk file named _files.md\n",
        ".env": "SECRET=1\n",
        "conf/.secret/key.md": "hidden dir\n",
        "skills/grafana-lgtm/broken/SKILL.md": "---\nname: Broken\n---\n",
        "skills/grafana-lgtm/broken/ref.md": "inside a skipped skill\n",
        "grafana-lgtm/broken/ref.md": "under a skipped skill's address\n",
        "grafana-lgtm/tempo/extra.md": "under a served skill's address\n",
      },
    },
    {
      id: "k6",
      fetch: FETCH,
      root: "plugins/k6",
      skills: [
        { dir: "skills/grafana-k6/k6-run", description: "Run a k6 test." },
        { dir: "skills/grafana-k6/k6-cloud", description: "Run k6 in the cloud." },
      ],
      tree: { "k6-notes.md": "k6 fallback\n" },
    },
    {
      // The whole fetch: reads other plugins' roots, but never their skill directories.
      id: "mono",
      fetch: FETCH,
      root: "",
      tree: {
        "plugins/k6/skills/grafana-k6/k6-run/SKILL.md": "k6-run raw\n",
        "plugins/lgtm/skills/grafana-lgtm/broken/ref.md": "skipped raw\n",
        "plugins/lgtm/shared/notes.md": "notes via the fetch root\n",
        "grafana-k6/k6-run/x.md": "under k6-run's address\n",
        "grafana-k8/x.md": "under no skill's address\n",
      },
    },
    {
      id: "kit",
      skills: [
        {
          dir: "skills/writing",
          description: "Write well.",
          files: { "refs/style.md": "# Style\n", "_index.md": "shadowed by the folder index\n" },
        },
        { dir: "skills/writing/drafts", description: "Draft first." },
      ],
      libraryFiles: { "shared/x.md": "x\n" },
      tree: { "shared/y.md": "y\n", "other/readme.md": "other\n" },
    },
    {
      id: "handbook",
      libraryFiles: { "guide/intro.md": "intro\n", "guide/deep/more.md": "more\n", "a.md": "a\n" },
    },
    { id: "wholeplugin", skills: [{ dir: "", address: "solo" }], tree: { "notes.md": "inside a whole-plugin skill\n" } },
    { id: "orphan", skills: [{ dir: "skills/lost" }] },
    {
      // A folder that also holds library files; names that need escaping.
      id: "mixedp",
      skills: [{ dir: "skills/team/alpha" }, { dir: "skills/my notes/beta", description: "Spaces in a folder." }],
      libraryFiles: { "team/README.md": "team\n", "zz/100% sure.md": "percent\n" },
    },
    { id: "mixedq", libraryFiles: { "aaa.md": "second plugin's file\n" } },
  ],
  libraries: [
    { name: "grafana", description: "Grafana's skills.", plugins: ["overview", "lgtm", "k6", "mono"] },
    { name: "kit", plugins: ["kit"] },
    { name: "docs", plugins: ["handbook"] },
    { name: "solo", plugins: ["wholeplugin"] },
    { name: "mixed", plugins: ["mixedp", "mixedq"] },
    // `orphan` was dropped by a conflict: named but not served.
    { name: "dropped", plugins: ["orphan"], served: [] },
  ],
});
