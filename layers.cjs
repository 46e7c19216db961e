// The layers of src/ and what each may import: the one statement that the dependency checker
// (.dependency-cruiser.cjs), the lint rule for pure layers (eslint.config.js) and the table in
// docs/architecture.md are held to (test/architecture/layers.test.ts compares the document with this list).
//
// `imports`: folders (or top-level files) whose code this layer may use at run time.
// `typesFrom`: folders this layer may import types from only (`import type`), never code.
// `pure`: no disk, no process, no network, no protocol SDK (enforced by ESLint's no-restricted-imports).
// A folder or top-level file of src/ that is not listed here fails the dependency check.

const EVERY_FOLDER = [
  "address",
  "log",
  "memo",
  "seal",
  "guard",
  "config",
  "prompts",
  "sources",
  "harvest",
  "shelf",
  "assemble",
  "resolve",
  "discovery",
  "search",
  "health",
  "plugins",
  "live",
  "mcp",
  "oauth",
  "store",
  "web",
  "http",
];

/** @type {{name: string, file?: boolean, pure: boolean, imports: string[], typesFrom: string[]}[]} */
const LAYERS = [
  { name: "address", pure: true, imports: [], typesFrom: [] },
  { name: "log", pure: true, imports: [], typesFrom: [] },
  { name: "memo", pure: true, imports: [], typesFrom: [] },
  { name: "seal", pure: true, imports: [], typesFrom: [] },
  { name: "guard", pure: true, imports: ["address", "memo"], typesFrom: [] },
  { name: "config", pure: false, imports: ["address"], typesFrom: [] },
  { name: "prompts", pure: true, imports: ["address", "config"], typesFrom: [] },
  { name: "sources", pure: false, imports: ["address", "config"], typesFrom: [] },
  { name: "harvest", pure: false, imports: ["address", "guard", "config", "prompts"], typesFrom: [] },
  { name: "shelf", pure: true, imports: ["address", "guard", "config", "prompts", "harvest"], typesFrom: [] },
  {
    name: "assemble",
    pure: false,
    imports: ["address", "memo", "guard", "config", "prompts", "sources", "harvest", "shelf"],
    typesFrom: [],
  },
  { name: "resolve", pure: true, imports: ["address", "memo", "config", "prompts", "harvest", "shelf"], typesFrom: [] },
  { name: "discovery", pure: true, imports: ["address", "config", "prompts", "harvest", "shelf", "resolve"], typesFrom: [] },
  { name: "search", pure: true, imports: ["address", "memo", "config", "prompts", "harvest", "shelf", "resolve"], typesFrom: [] },
  {
    name: "health",
    pure: true,
    imports: ["address", "log", "memo", "guard", "config", "prompts", "harvest", "shelf", "resolve", "discovery"],
    typesFrom: [],
  },
  { name: "plugins", pure: false, imports: ["address", "config", "prompts", "harvest", "shelf", "resolve"], typesFrom: [] },
  {
    name: "live",
    pure: false,
    imports: ["address", "log", "memo", "config", "prompts", "sources", "harvest", "shelf", "assemble", "resolve", "search", "health"],
    typesFrom: [],
  },
  { name: "mcp", pure: false, imports: ["address", "memo", "config", "prompts", "shelf", "resolve", "search", "health"], typesFrom: [] },
  { name: "oauth", pure: false, imports: ["address", "memo", "config"], typesFrom: [] },
  { name: "store", pure: false, imports: ["address", "seal", "config"], typesFrom: [] },
  {
    name: "web",
    pure: false,
    imports: ["address", "memo", "seal", "config", "prompts", "shelf", "resolve", "search", "health"],
    typesFrom: ["mcp", "oauth"],
  },
  { name: "http", pure: false, imports: EVERY_FOLDER.filter((name) => name !== "http"), typesFrom: [] },
  { name: "usage.ts", file: true, pure: true, imports: ["address"], typesFrom: [] },
  { name: "settings.ts", file: true, pure: true, imports: ["address", "log", "config", "sources"], typesFrom: ["usage.ts"] },
  { name: "cli", pure: false, imports: [...EVERY_FOLDER, "usage.ts", "settings.ts"], typesFrom: [] },
  { name: "cli.ts", file: true, pure: false, imports: ["address", "cli", "config", "usage.ts", "settings.ts"], typesFrom: [] },
  { name: "index.ts", file: true, pure: false, imports: EVERY_FOLDER, typesFrom: [] },
];

/** The path pattern (from the repository root) of a layer's files. */
function pathOf(layer) {
  return layer.file ? `^src/${layer.name.replace(/\./g, "\\.")}$` : `^src/${layer.name}/`;
}

function layerNamed(name) {
  const layer = LAYERS.find((candidate) => candidate.name === name);
  if (layer === undefined) throw new Error(`layers.cjs names an unknown layer: ${name}`);
  return layer;
}

module.exports = { LAYERS, pathOf, layerNamed };
