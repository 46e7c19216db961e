// A new source kind is one file and one registration line: the test-only memory kind (memory-kind.ts), registered
// with `registerSourceKind`, is known to the config's URL check and the address grammar, fetched by the shelf
// service, refreshed, reported stale on /health, and unknown again once removed. Failures of every kind are one
// type that names the kind.
import { afterEach, describe, expect, test } from "vitest";
import { GIT_RULES, parseConfig } from "../../src/config/index.js";
import { buildHealth } from "../../src/health/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { fetchedKind, registerSourceKind, SourceFailure } from "../../src/sources/index.js";
import { classifyGitFailure } from "../../src/sources/git-errors.js";
import { describeDavFailure } from "../../src/sources/webdav-errors.js";
import { configOf, readText } from "../live/helpers.js";
import { tempDir } from "../support/temp.js";
import { MEMORY_KIND, MEMORY_STORES } from "./memory-kind.js";

const unregisters: (() => void)[] = [];
const services: ShelfService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  for (const unregister of unregisters.splice(0)) unregister();
  MEMORY_STORES.clear();
});

const yamlOf = (address: string) => `sources:
  - {name: mem, url: "memory://shelf"}
plugins:
  - {name: kit, source: "${address}"}
libraries:
  - {name: kit, plugins: [kit]}
`;

const skillMd = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;
const BUILT_IN_SCHEMES = "git+https://, git+http://, git+file://, file://, webdav+https:// or webdav+http://";

function rulesBroken(yaml: string): string[] {
  const result = parseConfig(yaml, "skillshelf.yaml", "/srv");
  return result.ok ? [] : result.errors.map((error) => `${error.path}: ${error.rule}`);
}

describe("a kind registered with one line", () => {
  test("is unknown to the config before it is registered and after it is removed", () => {
    const refused = [`/sources/0/url: a source URL starts with ${BUILT_IN_SCHEMES}`];
    expect(rulesBroken(yamlOf("mem://team/kit"))).toEqual(refused);
    const unregister = registerSourceKind(MEMORY_KIND);
    expect(rulesBroken(yamlOf("mem://team/kit"))).toEqual([]);
    unregister();
    expect(rulesBroken(yamlOf("mem://team/kit"))).toEqual(refused);
    expect(fetchedKind("memory")).toBeUndefined();
  });

  test("is held to its rules by the URL check and the address grammar", () => {
    unregisters.push(registerSourceKind(MEMORY_KIND));
    expect(rulesBroken(yamlOf("mem://team/kit?ref=main"))).toEqual([
      "/plugins/0/source: ?ref= needs a git source, and 'mem' is a memory source",
    ]);
    expect(rulesBroken(yamlOf("mem://team/kit").replace("memory://shelf", "memory:///shelf"))).toEqual([
      "/sources/0/url: a memory URL names a host, as memory://host",
    ]);
    expect(rulesBroken(yamlOf("mem://team/kit").replace("memory://shelf", "ftp://shelf"))).toEqual([
      `/sources/0/url: a source URL starts with ${BUILT_IN_SCHEMES.replace(" or ", ", ")} or memory://`,
    ]);
  });

  test("is fetched by the shelf service, refreshed, and reported stale while its source is down", async () => {
    unregisters.push(registerSourceKind(MEMORY_KIND));
    const store = { folders: new Map([["team/kit", { "skills/alpha/SKILL.md": skillMd("alpha", "one") }]]), down: false };
    MEMORY_STORES.set("shelf", store);
    const service = await ShelfService.start(configOf(yamlOf("mem://team/kit"), "/srv"), () => new Date(), {
      cacheDir: tempDir("skillshelf-kinds-cache-"),
    });
    services.push(service);
    expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha", "one"));
    expect(buildHealth(service.current).fetches["mem://team/kit"]?.status).toBe("ok");

    store.folders.set("team/kit", { "skills/alpha/SKILL.md": skillMd("alpha", "two") });
    await service.refresh("mem");
    expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha", "two"));

    store.down = true;
    await service.refresh("mem");
    expect(buildHealth(service.current).fetches["mem://team/kit"]).toMatchObject({
      status: "stale",
      error: "refresh failed: the store could not be reached; serving the last export",
    });
    expect(await readText(service.current, "skill://kit/alpha/SKILL.md")).toBe(skillMd("alpha", "two"));
  });

  test("cannot be registered twice, nor take a built-in kind's name with other rules", () => {
    unregisters.push(registerSourceKind(MEMORY_KIND));
    expect(() => registerSourceKind(MEMORY_KIND)).toThrow("source kind 'memory' is registered twice");
    expect(() => registerSourceKind({ ...MEMORY_KIND, rules: { ...GIT_RULES, kind: "memory2", schemes: ["git+https"] } })).toThrow(
      "the URL scheme 'git+https' of source kind 'memory2' is taken",
    );
  });
});

describe("a failure of any kind", () => {
  test("is a SourceFailure naming the source kind, the reason and a fixed sentence", () => {
    const git = classifyGitFailure({ code: 128 }, "fatal: Authentication failed for 'https://h/r'", "fetch", true);
    const dav = describeDavFailure({ status: 401 }, "team", 1000);
    expect([git, dav].map((failure) => [failure instanceof SourceFailure, failure.source, failure.kind, failure.message])).toEqual([
      [true, "git", "auth", "the git host refused the credentials"],
      [true, "webdav", "auth", "the credentials were refused"],
    ]);
  });
});
