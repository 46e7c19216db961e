// Media types: the code files skills ship get text types where mime-db has none (or a wrong one); an unknown
// extension that decodes as UTF-8 stays Markdown, and one that does not is octet-stream.
import { expect, test } from "vitest";
import { mimeTypeFor } from "../../src/address/index.js";

test.each([
  ["scripts/Program.cs", "text/x-csharp"],
  ["App.csproj", "text/xml"],
  ["deploy.ps1", "text/x-powershell"],
  ["Tools.psm1", "text/x-powershell"],
  ["main.bicep", "text/x-bicep"],
  ["infra/main.tf", "text/x-terraform"],
  ["cmd/main.go", "text/x-go"],
  ["src/lib.rs", "text/x-rust"],
  ["Gemfile.rb", "text/x-ruby"],
  ["App.kt", "text/x-kotlin"],
  ["App.swift", "text/x-swift"],
  ["init.lua", "text/x-lua"],
  ["schema.sql", "text/x-sql"],
  ["schema.graphql", "text/x-graphql"],
  ["Cargo.toml", "text/x-toml"],
  ["setup.ini", "text/x-ini"],
  ["build.BAT", "text/x-bat"],
  ["a.py", "text/x-python"],
  ["data.json", "application/json"],
  ["notes.unknownext", "text/markdown"],
  ["LICENSE", "text/markdown"],
])("%s => %s", (path, type) => {
  expect(mimeTypeFor(path)).toBe(type);
});

test("an unknown extension that is not UTF-8 is octet-stream", () => {
  expect(mimeTypeFor("blob.unknownext", false)).toBe("application/octet-stream");
});
