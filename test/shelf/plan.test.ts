// planLibraries, the pure choice of each library's plugins: its marketplace's entries first, then the plugins it
// names, then its selector's matches; an `<entry>@<library>` reference that serves nothing is a library error that
// says why and lists what the marketplace publishes.
import { describe, expect, test } from "vitest";
import type { LibraryConfig } from "../../src/config/index.js";
import type { HarvestedPlugin } from "../../src/harvest/index.js";
import { describeFromPlugins, type MarketplaceOutcome, planLibraries } from "../../src/shelf/plan.js";

function harvested(id: string, category?: string): HarvestedPlugin {
  return {
    id,
    meta: { description: "", tags: [], keywords: [], ...(category === undefined ? {} : { category }) },
    fetch: id,
    root: "",
    status: "ok",
    skills: [],
    libraryFiles: [],
    tree: new Map(),
    skillDirs: [],
    prompts: [],
    skipped: [],
  };
}

const PLUGINS = [harvested("kit", "eng"), harvested("docs", "writing"), harvested("ops", "eng")];

function library(name: string, extra: Partial<LibraryConfig> = {}): LibraryConfig {
  return { name, description: `${name} library`, plugins: [], ...extra };
}

const MARKET: MarketplaceOutcome = {
  ids: ["alpha@market", "beta@market"],
  skipped: [{ plugin: "gamma@market", reason: "Its repository is on https://example.com, which no declared git source serves." }],
};

describe("planLibraries", () => {
  test("marketplace entries first, then named plugins, then selector matches, each once; the conflict rule carried", () => {
    const plans = planLibraries(
      [
        library("market", {
          plugins: ["docs", "alpha@market"],
          pluginSelector: { categories: ["eng"], tags: [] },
          conflicts: "drop-plugin",
        }),
      ],
      PLUGINS,
      new Map([["market", MARKET]]),
    );
    expect(plans).toEqual([
      {
        name: "market",
        description: "market library",
        plugins: ["alpha@market", "beta@market", "docs", "kit", "ops"],
        conflicts: "drop-plugin",
        skipped: MARKET.skipped,
      },
    ]);
  });

  test("a plain library: its plugins in order, keep-first by default, no error and no skipped rows", () => {
    expect(planLibraries([library("eng", { plugins: ["ops", "kit"] })], PLUGINS, new Map())).toEqual([
      { name: "eng", description: "eng library", plugins: ["ops", "kit"], conflicts: "keep-first" },
    ]);
  });

  test("a marketplace that could not be read is the library's error, and nothing of it is served", () => {
    const broken: MarketplaceOutcome = { ids: [], skipped: [], error: "The marketplace cannot be read: fetch market failed (offline)." };
    expect(planLibraries([library("market", { plugins: ["docs"] })], PLUGINS, new Map([["market", broken]]))).toEqual([
      {
        name: "market",
        description: "market library",
        plugins: ["docs"],
        conflicts: "keep-first",
        error: "The marketplace cannot be read: fetch market failed (offline).",
      },
    ]);
  });

  test.each([
    ["a library without a marketplace", "x@plain", "Plugin 'x@plain' names library 'plain', which has no marketplace."],
    ["a marketplace that failed", "x@broken", "Plugin 'x@broken' cannot be served: the marketplace of library 'broken' could not be read."],
    [
      "a skipped entry",
      "gamma@market",
      "Plugin 'gamma@market' is a skipped entry of library 'market': Its repository is on https://example.com, which no declared git source serves.",
    ],
    [
      "an entry the marketplace lacks",
      "delta@market",
      "Plugin 'delta@market' names no entry of the marketplace of library 'market'; it publishes: alpha, beta.",
    ],
    ["an empty marketplace", "x@empty", "Plugin 'x@empty' names no entry of the marketplace of library 'empty'; it publishes no entries."],
  ])("a reference to %s is a library error; the rest still serves", (_name, reference, message) => {
    const marketplaces = new Map<string, MarketplaceOutcome>([
      ["market", MARKET],
      ["broken", { ids: [], skipped: [], error: "offline" }],
      ["empty", { ids: [], skipped: [] }],
    ]);
    const [plan] = planLibraries([library("lib", { plugins: [reference, "kit"] })], PLUGINS, marketplaces);
    expect(plan).toEqual({ name: "lib", description: "lib library", plugins: ["kit"], conflicts: "keep-first", error: message });
  });

  test("a served entry of another library's marketplace is served; two bad references are both named", () => {
    const [plan] = planLibraries(
      [library("lib", { plugins: ["beta@market", "nope@market", "x@plain"] })],
      PLUGINS,
      new Map([["market", MARKET]]),
    );
    expect(plan?.plugins).toEqual(["beta@market"]);
    expect(plan?.error).toBe(
      "Plugin 'nope@market' names no entry of the marketplace of library 'market'; it publishes: alpha, beta. " +
        "Plugin 'x@plain' names library 'plain', which has no marketplace.",
    );
  });
});

describe("describeFromPlugins", () => {
  const described = (id: string, description: string): HarvestedPlugin => ({
    ...harvested(id),
    meta: { ...harvested(id).meta, description },
  });
  const plan = (name: string, description: string, plugins: string[]) => ({ name, description, plugins, conflicts: "keep-first" as const });
  test.each([
    { name: "the first plugin with a description", plugins: ["bare", "kit", "docs"], written: "", expected: "Kit things." },
    { name: "a written description kept", plugins: ["kit"], written: "Ours.", expected: "Ours." },
    { name: "no plugin with one", plugins: ["bare"], written: "", expected: "" },
    { name: "a plugin not harvested", plugins: ["gone", "docs"], written: "", expected: "Docs things." },
  ])("$name", ({ plugins, written, expected }) => {
    const harvestedPlugins = [described("bare", ""), described("kit", "Kit things."), described("docs", "Docs things.")];
    expect(describeFromPlugins([plan("lib", written, plugins)], harvestedPlugins).map((p) => p.description)).toEqual([expected]);
  });
});
