import tseslint from "typescript-eslint";

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
  ].map((name) => ({ name, message: "the pure core (resolve, shelf, prompts) never touches the disk, the process or HTTP" })),
  patterns: [{ group: ["@modelcontextprotocol/*"], message: "the pure core does not know the protocol layer" }],
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", ".stryker-tmp/**", "reports/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/resolve/**", "src/shelf/**", "src/prompts/**", "src/search/**"],
    rules: {
      "no-restricted-imports": ["error", PURE_CORE_BANS],
      "no-restricted-globals": ["error", { name: "process", message: "the pure core never reads the process" }],
    },
  },
);
