import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFlags, scriptArgs } from "../../bench/lib/args.mjs";

describe("the bench scripts' flags", () => {
  it("reads --key=value and a bare --key as true, keeping every = after the first in the value", () => {
    expect(parseFlags(["--n=5", "--quick", "--config=a=b.yaml", "--sections="])).toEqual({
      n: "5",
      quick: "true",
      config: "a=b.yaml",
      sections: "",
    });
  });

  it("refuses what is not a --flag, naming it", () => {
    expect(() => parseFlags(["--n=5", "-n=6"])).toThrow('not a --flag or --flag=value: "-n=6"');
    expect(() => parseFlags(["stray"])).toThrow('not a --flag or --flag=value: "stray"');
    expect(() => parseFlags(["--"])).toThrow('not a --flag or --flag=value: "--"');
  });

  it("measures the build given with --dist, else this checkout's dist/", () => {
    expect(scriptArgs(["--dist=build/app/dist"]).dist).toBe(path.resolve("build/app/dist"));
    expect(scriptArgs([]).dist).toBe(path.resolve(import.meta.dirname, "../../dist"));
  });
});
