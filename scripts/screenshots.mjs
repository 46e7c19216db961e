#!/usr/bin/env node
// Regenerates the README's two pictures of the page: starts the built server (dist/cli.js; `npm run screenshots`
// builds first) on the bundled example shelf, opens it in the system's headless Chromium through playwright-core,
// and writes docs/page-library.png (a library) and docs/page-skill.png (a skill with its rendered SKILL.md).
//
//   CHROMIUM=/path/to/chromium   another browser binary (default /usr/bin/chromium, Debian's `chromium`)
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = [
  { route: "/libraries/engineering", file: "docs/page-library.png" },
  { route: "/skills/engineering/code-review", file: "docs/page-skill.png" },
];

/** The server's origin, from the startup line it writes to stderr. */
function startServer() {
  const child = spawn(process.execPath, [path.join(root, "dist/cli.js"), "serve", "--config", "plugins.example.yaml", "--port", "0"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start within 30 s:\n${seen}`)), 30_000);
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)\/mcp/.exec(seen);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ child, origin: match[1] });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code}:\n${seen}`));
    });
  });
}

const { child, origin } = await startServer();
let browser;
try {
  browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
  for (const shot of SHOTS) {
    await page.goto(`${origin}${shot.route}`);
    await page.screenshot({ path: path.join(root, shot.file) });
    process.stdout.write(`wrote ${shot.file} (${shot.route})\n`);
  }
} finally {
  await browser?.close();
  child.removeAllListeners("exit");
  child.kill("SIGTERM");
}
