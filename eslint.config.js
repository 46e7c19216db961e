import tseslint from "typescript-eslint";
import layers from "./layers.cjs";

// The pure layers are named once, in layers.cjs (docs/architecture.md's table says the same).
const PURE = layers.LAYERS.filter((layer) => layer.pure);
const PURE_FILES = PURE.map((layer) => (layer.file ? `src/${layer.name}` : `src/${layer.name}/**`));
const PURE_NAMES = PURE.map((layer) => layer.name).join(", ");

// The pure core never touches the disk, the process, the network or the protocol layer.
const PURE_CORE_BANS = {
  paths: [
    "fs",
    "node:fs",
    "fs/promises",
    "node:fs/promises",
    "express",
    "child_process",
    "node:child_process",
    "process",
    "node:process",
  ].map((name) => ({ name, message: `the pure layers (${PURE_NAMES}) never touch the disk, the process or HTTP` })),
  patterns: [{ group: ["@modelcontextprotocol/*"], message: `the pure layers (${PURE_NAMES}) do not know the protocol layer` }],
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", ".stryker-tmp/**", "reports/**", "src/config/schema-validator.generated.ts"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // CommonJS config files (the dependency checker's and the layer list it reads) load each other with require().
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: PURE_FILES,
    rules: {
      "no-restricted-imports": ["error", PURE_CORE_BANS],
      "no-restricted-globals": ["error", { name: "process", message: `the pure layers (${PURE_NAMES}) never read the process` }],
    },
  },
);
