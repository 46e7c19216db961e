import { describe, expect, it } from "vitest";
import { alternation, compareFigure, compareRuns, figuresOf, formatAgainst, formatValue } from "../../bench/lib/compare.mjs";

describe("the order of a run against a baseline", () => {
  it("alternates the builds, round after round", () => {
    expect(alternation(["this", "baseline"], 3)).toEqual([
      { build: "this", round: 0 },
      { build: "baseline", round: 0 },
      { build: "this", round: 1 },
      { build: "baseline", round: 1 },
      { build: "this", round: 2 },
      { build: "baseline", round: 2 },
    ]);
  });

  it("runs one build alone once per round", () => {
    expect(alternation(["this"], 2)).toEqual([
      { build: "this", round: 0 },
      { build: "this", round: 1 },
    ]);
  });

  it("refuses a round count that is not a whole number ≥ 1, and no builds", () => {
    expect(() => alternation(["this", "baseline"], 0)).toThrow("rounds must be a whole number ≥ 1, not 0");
    expect(() => alternation(["this", "baseline"], 1.5)).toThrow("rounds must be a whole number ≥ 1, not 1.5");
    expect(() => alternation(["this", "baseline"], Number("x"))).toThrow("rounds must be a whole number ≥ 1, not NaN");
    expect(() => alternation([], 1)).toThrow("no build to run");
  });
});

describe("a figure against the baseline's", () => {
  it("flags a time more than 15 % longer, as +N %", () => {
    const slower = compareFigure(125, 100, "lower");
    expect(slower).toEqual({ ratio: 1.25, changePct: 25, worsePct: 25, flagged: true });
    expect(formatAgainst(slower)).toBe("1.25× ⚠ +25 %");
  });

  it("does not flag 15 % exactly, nor a figure that got better", () => {
    expect(formatAgainst(compareFigure(115, 100, "lower"))).toBe("1.15×");
    expect(formatAgainst(compareFigure(50, 100, "lower"))).toBe("0.50×");
    expect(formatAgainst(compareFigure(2000, 1000, "higher"))).toBe("2.00×");
  });

  it("flags a throughput more than 15 % lower, as −N %", () => {
    const c = compareFigure(800, 1000, "higher");
    expect(c?.flagged).toBe(true);
    expect(c?.worsePct).toBeCloseTo(20, 10);
    expect(formatAgainst(c)).toBe("0.80× ⚠ −20 %");
    expect(formatAgainst(compareFigure(860, 1000, "higher"))).toBe("0.86×");
  });

  it("has no ratio without both figures or against a zero baseline", () => {
    expect(compareFigure(null, 100, "lower")).toBeNull();
    expect(compareFigure(100, undefined, "lower")).toBeNull();
    expect(compareFigure(100, 0, "lower")).toBeNull();
    expect(compareFigure(NaN, 100, "higher")).toBeNull();
    expect(formatAgainst(null)).toBe("—");
  });

  it("refuses an unknown direction", () => {
    // @ts-expect-error: the direction a test passes wrongly on purpose
    expect(() => compareFigure(1, 1, "faster")).toThrow('better must be "lower" or "higher", not faster');
  });

  it("writes each unit as the other tables do", () => {
    expect(formatValue(1234.5, "ms")).toBe("1,235 ms");
    expect(formatValue(0.0043, "ms")).toBe("4.30 µs");
    expect(formatValue(3765, "bytes")).toBe("3,765 B");
    expect(formatValue(330.4, "MB")).toBe("330 MB");
    expect(formatValue(2019.4, "rate")).toBe("2,019/s");
    expect(formatValue(null, "ms")).toBe("—");
    // @ts-expect-error: an unknown unit on purpose
    expect(() => formatValue(1, "s")).toThrow("unknown unit s");
  });
});

describe("a run's figures against the baseline's", () => {
  const startup = (versionMs: number, helpMs: number, stdioInitializeMs: number) => ({
    startup: { runs: 5, floorMs: 40, versionMs, helpMs, stdioInitializeMs },
  });

  it("takes the startup figures, never the floor's", () => {
    expect(figuresOf(startup(150, 160, 700)).map((f) => [f.id, f.value, f.better])).toEqual([
      ["startup/version", 150, "lower"],
      ["startup/help", 160, "lower"],
      ["startup/stdio", 700, "lower"],
    ]);
  });

  it("takes skillshelf's load rows as throughput (higher is better) and p99, not the floor's or the peer's", () => {
    const load = { transport: "http", era: "modern", workload: "read-mix", concurrency: 8, perSecond: 2000, p99Ms: 16 };
    const results = {
      serve: {
        cold: [],
        memory: {},
        loads: [
          { ...load, server: "skillshelf" },
          { ...load, server: "floor", perSecond: 2600 },
          { ...load, server: "sdk-peer", perSecond: 1900 },
        ],
      },
    };
    const loads = figuresOf(results).filter((f) => f.id.startsWith("serve/http"));
    expect(loads.map((f) => [f.id, f.value, f.better])).toEqual([
      ["serve/http/modern/read-mix/8", 2000, "higher"],
      ["serve/http/modern/read-mix/8/p99", 16, "lower"],
    ]);
  });

  it("compares the medians of the rounds and lists the flagged figures", () => {
    const ours = [startup(150, 200, 700), startup(154, 210, 600), startup(400, 190, 650)];
    const base = [startup(150, 160, 650), startup(152, 170, 640), startup(148, 165, 660)];
    const { rows, flags } = compareRuns(ours, base);
    expect(rows.map((r) => [r.id, r.ours, r.base, formatAgainst(r.comparison)])).toEqual([
      ["startup/version", 154, 150, "1.03×"],
      ["startup/help", 200, 165, "1.21× ⚠ +21 %"],
      ["startup/stdio", 650, 650, "1.00×"],
    ]);
    expect(flags.map((f) => f.id)).toEqual(["startup/help"]);
  });

  it("takes the mean of the middle two of an even number of rounds", () => {
    const { rows } = compareRuns([startup(150, 200, 700), startup(170, 210, 600)], [startup(100, 100, 500), startup(140, 120, 520)]);
    expect(rows.map((r) => [r.id, r.ours, r.base, formatAgainst(r.comparison)])).toEqual([
      ["startup/version", 160, 120, "1.33× ⚠ +33 %"],
      ["startup/help", 205, 110, "1.86× ⚠ +86 %"],
      ["startup/stdio", 650, 510, "1.27× ⚠ +27 %"],
    ]);
  });

  it("keeps a figure the baseline has not, with no ratio and no flag", () => {
    const { rows, flags } = compareRuns([startup(150, 160, 700)], [{}]);
    expect(rows.map((r) => [r.id, r.base, r.comparison])).toEqual([
      ["startup/version", null, null],
      ["startup/help", null, null],
      ["startup/stdio", null, null],
    ]);
    expect(flags).toEqual([]);
  });
});
