// docs/architecture.md's table of layers and layers.cjs (what the dependency checker and the lint rule enforce) say
// the same thing: a layer added, an import allowed or a layer made pure in one and not the other fails here.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { marked, type Tokens } from "marked";
import { describe, expect, it } from "vitest";

interface Layer {
  name: string;
  file?: boolean;
  pure: boolean;
  imports: string[];
  typesFrom: string[];
}

const { LAYERS } = createRequire(import.meta.url)("../../layers.cjs") as { LAYERS: Layer[] };
const FOLDERS = LAYERS.filter((layer) => layer.file !== true).map((layer) => layer.name);

function documentedTable(): Map<string, { imports: string[]; typesFrom: string[]; pure: boolean }> {
  const text = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");
  const table = marked.lexer(text).find((token): token is Tokens.Table => token.type === "table" && token.header[0]?.text === "layer");
  if (table === undefined) throw new Error("docs/architecture.md has no table of layers");
  const rows = new Map<string, { imports: string[]; typesFrom: string[]; pure: boolean }>();
  for (const row of table.rows) {
    const name = /^`([^`]+?)\/?`$/.exec(row[0]!.text)?.[1];
    if (name === undefined) throw new Error(`a row of the table names no layer: ${row[0]!.text}`);
    const [runTime, types = ""] = row[2]!.text.split("; types only from ");
    const names = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    // "every layer" is every folder below the entry point: `cli/` is the entry's own wiring, which nothing imports.
    const every = runTime!.startsWith("every layer") ? FOLDERS.filter((folder) => folder !== name && folder !== "cli") : [];
    rows.set(name, { imports: [...every, ...names(runTime!)], typesFrom: names(types), pure: /\bpure\b/.test(row[3]!.text) });
  }
  return rows;
}

describe("the layers", () => {
  it("are the same in docs/architecture.md and layers.cjs, row by row", () => {
    const documented = documentedTable();
    expect([...documented.keys()]).toEqual(LAYERS.map((layer) => layer.name));
    for (const layer of LAYERS) {
      expect({ name: layer.name, ...documented.get(layer.name) }).toEqual({
        name: layer.name,
        imports: layer.imports,
        typesFrom: layer.typesFrom,
        pure: layer.pure,
      });
    }
  });

  it("cover every folder and top-level file of src/", () => {
    const entries = readdirSync(new URL("../../src/", import.meta.url), { withFileTypes: true });
    const inSrc = entries.map((entry) => entry.name).sort();
    expect(inSrc).toEqual(LAYERS.map((layer) => layer.name).sort());
  });

  it("import only layers below them, so the table can be read bottom first", () => {
    for (const [at, layer] of LAYERS.entries()) {
      const below = new Set(LAYERS.slice(0, at).map((other) => other.name));
      expect({ layer: layer.name, above: [...layer.imports, ...layer.typesFrom].filter((name) => !below.has(name)) }).toEqual({
        layer: layer.name,
        above: [],
      });
    }
  });
});
