// The layers of src/ and what each may import are stated once, in layers.cjs; docs/architecture.md explains each
// layer and its table is checked against the same list. From another folder, import only its index.ts.
const { LAYERS, pathOf } = require("./layers.cjs");

const anyLayer = LAYERS.map(pathOf).join("|");
const patternOf = (name) => pathOf(LAYERS.find((layer) => layer.name === name));

const mayImport = LAYERS.map((layer) => ({
  name: `layer-${layer.name}`,
  comment:
    `src/${layer.name} may import ${layer.imports.join(", ") || "nothing"}` +
    (layer.typesFrom.length > 0 ? `, and types only from ${layer.typesFrom.join(", ")}` : "") +
    " (layers.cjs, docs/architecture.md)",
  severity: "error",
  from: { path: pathOf(layer) },
  to: { path: "^src/", pathNot: [pathOf(layer), ...layer.imports.map(patternOf), ...layer.typesFrom.map(patternOf)] },
}));

const typesOnly = LAYERS.filter((layer) => layer.typesFrom.length > 0).map((layer) => ({
  name: `layer-${layer.name}-types-only`,
  comment: `src/${layer.name} imports only types from ${layer.typesFrom.join(", ")}, never code (layers.cjs)`,
  severity: "error",
  from: { path: pathOf(layer) },
  to: { path: layer.typesFrom.map(patternOf).join("|"), dependencyTypesNot: ["type-only"] },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle between files (and so none between folders).",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...mayImport,
    ...typesOnly,
    {
      name: "every-file-in-a-layer",
      comment: "Every file of src/ belongs to a layer of layers.cjs: a new folder or top-level file is declared there first.",
      severity: "error",
      from: { path: "^src/", pathNot: anyLayer },
      to: {},
    },
    {
      name: "through-the-barrel",
      comment: "Another folder is imported through its index.ts only, so each folder's surface is what it exports there.",
      severity: "error",
      from: { path: "^src/([^/]+)/" },
      to: { path: "^src/[^/]+/", pathNot: ["^src/$1/", "^src/[^/]+/index\\.ts$"] },
    },
    {
      name: "top-level-through-the-barrel",
      comment: "cli.ts and index.ts import the layers through their index.ts too.",
      severity: "error",
      from: { path: "^src/[^/]+\\.ts$" },
      to: { path: "^src/[^/]+/", pathNot: "^src/[^/]+/index\\.ts$" },
    },
    {
      name: "not-its-own-barrel",
      comment: "Inside a folder, files import each other directly: a file importing its own index.ts closes a cycle.",
      severity: "error",
      from: { path: "^src/([^/]+)/", pathNot: "^src/[^/]+/index\\.ts$" },
      to: { path: "^src/$1/index\\.ts$" },
    },
    {
      name: "mcp-through-its-port",
      comment: "The MCP layer reads the live shelf through the ShelfAccess port it is given, never the disk or the holder.",
      severity: "error",
      from: { path: "^src/mcp/" },
      to: { path: "^src/(sources|harvest|assemble|live)/" },
    },
    {
      name: "only-cli-is-the-process",
      comment: "Only cli.ts is the entry point; nothing imports it.",
      severity: "error",
      from: {},
      to: { path: "^src/cli\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
