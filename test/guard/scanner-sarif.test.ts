// Reading an external scanner's SARIF 2.1.0, its severities, and the bound on scans running at once.
import { expect, test } from "vitest";
import { Limiter } from "../../src/assemble/scan-process.js";
import { readScannerSarif, ruleLabel } from "../../src/guard/index.js";

const log = (run: object): string => JSON.stringify({ version: "2.1.0", runs: [{ tool: { driver: { name: "scan" } }, ...run }] });

test("each result is a finding: security-severity first, then the level (the result's, its rule's default, else warning)", () => {
  const rules = [
    { id: "r0", defaultConfiguration: { level: "error" }, help: { text: "Do  this\nnext." } },
    { id: "r1", shortDescription: { text: "Rule one." }, properties: { "security-severity": "7.0" } },
  ];
  const results = [
    { ruleId: "r0", message: { text: "zero" } },
    {
      ruleIndex: 1,
      message: { id: "default" },
      locations: [{ physicalLocation: { artifactLocation: { uri: "a/b.sh" }, region: { startLine: 4 } } }],
    },
    { ruleId: "x", level: "note", message: { text: "note" }, properties: { "security-severity": "9.0" } },
    { ruleId: "x", level: "note", message: { text: "noted" } },
    { ruleId: "x", level: "none", message: { text: "none" } },
    { ruleId: "x", message: { text: "plain" }, properties: { "security-severity": "3.9" } },
    { ruleId: "x", message: { text: "plain" }, properties: { "security-severity": "4" } },
    { message: { text: "anonymous" } },
  ];
  const out = readScannerSarif(JSON.stringify({ version: "2.1.0", runs: [{ tool: { driver: { name: "scan", rules } }, results }] }));
  if (!out.ok) throw new Error(out.reason);
  expect(out.results.map((r) => [r.rule, r.severity, r.line, r.reason, r.uri ?? null])).toEqual([
    ["scanner:r0", "high", 1, "zero", null],
    ["scanner:r1", "high", 4, "Rule one", "a/b.sh"],
    ["scanner:x", "critical", 1, "note", null],
    ["scanner:x", "low", 1, "noted", null],
    ["scanner:x", "low", 1, "none", null],
    ["scanner:x", "low", 1, "plain", null],
    ["scanner:x", "medium", 1, "plain", null],
    ["scanner:scan", "medium", 1, "anonymous", null],
  ]);
  expect(out.results[0]?.fix).toBe("Do this next.");
  expect(out.results[2]?.fix).toBe("See the scanner's rule x; fix the file, or release the finding under guard.allow.");
});

test("output that is not a SARIF 2.1.0 log of a successful run is a failure, saying where it broke", () => {
  expect(readScannerSarif("")).toEqual({ ok: false, reason: "its output is not JSON (SARIF 2.1.0 expected on stdout)" });
  expect(readScannerSarif(JSON.stringify({ version: "2.0.0", runs: [] }))).toEqual({
    ok: false,
    reason: 'its output is not a SARIF 2.1.0 log at version: Invalid input: expected "2.1.0"',
  });
  expect(readScannerSarif(log({ results: [{ ruleId: "r" }] }))).toEqual({
    ok: false,
    reason: "its output is not a SARIF 2.1.0 log at runs.0.results.0.message: Invalid input: expected object, received undefined",
  });
  expect(readScannerSarif(log({ invocations: [{ executionSuccessful: false }], results: [] }))).toEqual({
    ok: false,
    reason: "scan reported that its run did not succeed",
  });
  expect(readScannerSarif(log({}))).toEqual({ ok: true, results: [] });
});

test("a scanner's rules share one metric label", () => {
  expect([ruleLabel("scanner:anything"), ruleLabel("scanner-failed"), ruleLabel("secret-new")]).toEqual([
    "scanner",
    "scanner-failed",
    "other",
  ]);
});

test("the limiter runs at most its bound at once, the rest in order as slots free", async () => {
  const limiter = new Limiter(2);
  const started: number[] = [];
  const release: (() => void)[] = [];
  const task = (n: number) => () =>
    new Promise<number>((resolve) => {
      started.push(n);
      release[n] = () => resolve(n);
    });
  const done = [1, 2, 3, 4].map((n) => limiter.run(task(n)));
  await Promise.resolve();
  expect(started).toEqual([1, 2]);
  release[2]?.();
  await done[1];
  await new Promise((resolve) => setImmediate(resolve));
  expect(started).toEqual([1, 2, 3]);
  release[1]?.();
  release[3]?.();
  await Promise.all([done[0], done[2]]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(started).toEqual([1, 2, 3, 4]);
  release[4]?.();
  expect(await Promise.all(done)).toEqual([1, 2, 3, 4]);
});
