// What a crafted repository cannot do: reach outside its own tree through a symlinked subdirectory or plugin
// root, smuggle a ref into git's argv through its default branch's name, or hide a manifest outside the root.
import { afterAll, describe, expect, test } from "vitest";
import { ShelfService } from "../../src/live/shelf-service.js";
import { buildHealth } from "../../src/health/index.js";
import { isBranchRef, parseLsRemote } from "../../src/sources/git-store.js";
import { configOf, gitSource, readText } from "../live/helpers.js";
import { makeRepo, makeTemp, removeTemps, skillMd } from "./git-fixture.js";

const services: ShelfService[] = [];
afterAll(async () => {
  for (const service of services.splice(0)) await service.close();
  removeTemps();
});

test("a missing subdirectory, or one that is a symlink out of the fetch, fails that plugin only", async () => {
  const base = makeTemp();
  const outside = makeTemp();
  makeRepo(outside, "secret", { "skills/stolen/SKILL.md": skillMd("stolen") });
  makeRepo(base, "kit", {
    escape: { symlink: `${outside}/secret` },
    "inside/skills/fine/SKILL.md": skillMd("fine"),
    linked: { symlink: "inside" },
    ".claude-plugin/marketplace.json": JSON.stringify({
      plugins: [
        { name: "sneaky", source: "./escape" },
        { name: "ok", source: "./linked" },
      ],
    }),
  });
  const yaml = `${gitSource(base)}plugins:
  - {name: out, source: "local://kit//escape"}
  - {name: in, source: "local://kit//linked"}
  - {name: missing, source: "local://kit//nope"}
libraries:
  - {name: lib, plugins: [out, in, missing]}
  - {name: market, source: "local://kit"}
`;
  const service = await ShelfService.start(configOf(yaml, base), () => new Date(), { cacheDir: makeTemp() });
  services.push(service);
  const health = buildHealth(service.current);
  const leaves = "The subdirectory escape of fetch local://kit leads out of the fetch through a symlink.";
  expect(health.plugins.out).toMatchObject({ status: "failed", error: leaves });
  expect(health.plugins["sneaky@market"]).toMatchObject({ status: "failed", error: leaves });
  // A symlink that stays inside the fetch is followed.
  expect(health.plugins.in).toMatchObject({ status: "ok", skills: 1 });
  expect(health.plugins["ok@market"]).toMatchObject({ status: "ok", skills: 1 });
  // A subdirectory must exist inside the fetch; the fetch itself is fine.
  expect(health.plugins.missing).toMatchObject({
    status: "failed",
    error: "The plugin root, the subdirectory nope of fetch local://kit, does not exist.",
  });
  expect(health.fetches["local://kit"]?.status).toBe("ok");
  expect(await readText(service.current, "skill://lib/stolen/SKILL.md")).toBe(null);
  expect(JSON.stringify(health).includes(outside)).toBe(false);
});

describe("the remote's answers are data, never arguments", () => {
  test.each([
    ["refs/heads/main", true],
    ["refs/heads/feature/x-1", true],
    ["refs/heads/--upload-pack=x", false],
    ["refs/heads/a..b", false],
    ["refs/heads/a:refs/heads/b", false],
    ["refs/tags/v1", false],
    ["HEAD", false],
  ])("isBranchRef(%j) => %j", (ref, expected) => {
    expect(isBranchRef(ref)).toBe(expected);
  });

  test("ls-remote lines: symrefs and object ids", () => {
    expect(parseLsRemote("ref: refs/heads/main\tHEAD\n0123\tHEAD\n4567\trefs/heads/main\n\n")).toEqual([
      { ref: "HEAD", oid: "", symref: "refs/heads/main" },
      { ref: "HEAD", oid: "0123" },
      { ref: "refs/heads/main", oid: "4567" },
    ]);
  });
});
