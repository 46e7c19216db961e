// A scanner for the tests: node sarif-scanner.mjs <log file> <skill folder>. It appends the folder's name to the log
// (one line per run, what the tests count) and prints SARIF 2.1.0 with one result per line holding a marker:
// EVIL-CRITICAL (security-severity 9.5), EVIL-NOTE (level note), EVIL-OUTSIDE (a location outside the folder).
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [log, folder] = process.argv.slice(2);
appendFileSync(log, `${path.basename(folder)}\n`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const abs = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(abs) : [abs];
  });
}

const results = [];
for (const abs of walk(folder).sort()) {
  const rel = path.relative(folder, abs).split(path.sep).join("/");
  readFileSync(abs, "utf8")
    .split("\n")
    .forEach((text, i) => {
      const region = { startLine: i + 1 };
      if (text.includes("EVIL-CRITICAL"))
        results.push({
          ruleId: "evil-marker",
          message: { text: "A critical marker." },
          locations: [{ physicalLocation: { artifactLocation: { uri: rel }, region } }],
          properties: { "security-severity": "9.5" },
        });
      if (text.includes("EVIL-NOTE"))
        results.push({
          ruleIndex: 0,
          level: "note",
          message: { text: "A note." },
          locations: [{ physicalLocation: { artifactLocation: { uri: pathToFileURL(abs).href }, region } }],
        });
      if (text.includes("EVIL-OUTSIDE"))
        results.push({
          ruleId: "evil-marker",
          level: "error",
          message: { text: "Somewhere else." },
          locations: [{ physicalLocation: { artifactLocation: { uri: "../../elsewhere.sh" }, region } }],
        });
    });
}

const rules = [{ id: "evil-marker", shortDescription: { text: "A marker." }, help: { text: "Remove the marker." } }];
process.stdout.write(JSON.stringify({ version: "2.1.0", runs: [{ tool: { driver: { name: "marker-scan", rules } }, results }] }));
