// The layers of src/, bottom first: each folder imports only from the folders before it in this list, and
// from another folder only through that folder's index.ts. docs/architecture.md explains each layer.
const LAYERS = ["address", "config", "prompts", "sources", "harvest", "shelf", "assemble", "resolve", "search", "health", "live", "mcp", "oauth", "web", "http"];

const upward = LAYERS.map((layer, at) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ imports only from the layers below it: ${LAYERS.slice(0, at).join(", ") || "none"}`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${[...LAYERS.slice(at + 1), "cli\\.ts", "index\\.ts"].join("|")})` },
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
    ...upward,
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
