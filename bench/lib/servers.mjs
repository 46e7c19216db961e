// The three servers every serving figure compares, behind one handle: skillshelf (the built CLI), the floor
// (bench/floor-server.mjs) and the SDK's own skills server (the yardstick kit's peer-sdk.mjs).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { HttpRpc } from "./http-client.mjs";
import { freePort, memoryOf, spawnHttpServer, stop } from "./proc.mjs";
import { StdioRpc } from "./stdio-client.mjs";

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/;

/**
 * Start a server and connect to it. `spec`: `{name, transport: "stdio"|"http", era?, command, args}` where
 * an HTTP server either logs skillshelf's listening line or is given `port` and a `ready` pattern.
 * The handle: `prepare(method, params)` once per distinct call, `send(prepared)` per call, `memory()`, `close()`.
 */
export async function startServer(spec) {
  const t0 = performance.now();
  if (spec.transport === "stdio") {
    const rpc = new StdioRpc(spec.command, spec.args, { env: spec.env });
    await rpc.initialize();
    return {
      ...spec,
      pid: rpc.pid,
      startedMs: performance.now() - t0,
      t0: rpc.t0,
      prepare: (method, params = {}) => ({ method, params }),
      send: (prepared) => rpc.request(prepared.method, prepared.params),
      memory: () => memoryOf(rpc.pid),
      waitForNotification: (match, timeoutMs) => rpc.waitForNotification(match, timeoutMs),
      stderr: () => rpc.stderr,
      close: () => rpc.close(),
    };
  }
  const server = await spawnHttpServer(spec.command, spec.args, {
    ready: spec.ready ?? LISTENING,
    env: spec.env,
    timeoutMs: spec.timeoutMs,
  });
  const port = spec.port ?? server.port;
  const rpc = new HttpRpc(`http://127.0.0.1:${port}/mcp`, { era: spec.era ?? "modern", sockets: 16 });
  return {
    ...spec,
    pid: server.pid,
    port,
    startedMs: performance.now() - t0,
    t0: server.t0,
    readyMs: server.readyMs,
    prepare: (method, params = {}) => rpc.prepare(method, params),
    send: (prepared) => rpc.send(prepared),
    /** The same server in the other era (stateless HTTP: no handshake, so a second client is all it takes). */
    withEra(era) {
      const other = new HttpRpc(`http://127.0.0.1:${port}/mcp`, { era, sockets: 16 });
      return { ...this, era, prepare: (m, p = {}) => other.prepare(m, p), send: (x) => other.send(x), close: async () => other.close() };
    },
    memory: () => memoryOf(server.pid),
    stderr: server.stderr,
    close: async () => {
      rpc.close();
      await stop(server.child);
    },
  };
}

/** skillshelf's CLI from `appRoot` (the run's snapshot of the build; the checkout itself by default). */
export function skillshelfSpec({ projectRoot, appRoot = projectRoot, config, transport, era, extraArgs = [], nodeArgs = [] }) {
  const args = [...nodeArgs, path.join(appRoot, "dist/cli.js"), "serve", "--config", config, "--transport", transport, ...extraArgs];
  if (transport === "http") args.push("--port", "0");
  return { name: "skillshelf", transport, era, command: process.execPath, args };
}

export function floorSpec({ projectRoot, transport, era, readBytes, skillsFile, listingFile, nodeArgs = [] }) {
  const args = [
    ...nodeArgs,
    path.join(projectRoot, "bench/floor-server.mjs"),
    `--transport=${transport}`,
    `--read-bytes=${Math.max(0, Math.round(readBytes))}`,
  ];
  if (skillsFile) args.push(`--skills-file=${skillsFile}`);
  if (listingFile) args.push(`--listing-file=${listingFile}`);
  return { name: "floor", transport, era, command: process.execPath, args };
}

export async function peerSpec({ kit, root, transport, era, watch = false, nodeArgs = [] }) {
  if (transport === "stdio")
    return { name: "sdk-peer", transport, command: process.execPath, args: [...nodeArgs, kit.script, root, ...(watch ? ["--watch"] : [])] };
  const port = await freePort();
  return {
    name: "sdk-peer",
    transport,
    era,
    port,
    ready: /\[peer-sdk\] http on/,
    timeoutMs: 600_000,
    command: process.execPath,
    args: [...nodeArgs, kit.script, root, `--http=${port}`],
  };
}

/** The peer's own load time, from its `[peer-sdk] N skills loaded in Xms` line. */
export function peerLoadMs(stderr) {
  const match = stderr.match(/\[peer-sdk\] (\d+) skills loaded in (\d+)ms/);
  return match ? { skills: Number(match[1]), ms: Number(match[2]) } : null;
}

/**
 * The yardstick kit, copied out of the read-only ../shared/bench into `baseDir/kit` and installed with npm
 * (once; reused while its package.json is unchanged). Null, with the reason, when that fails.
 */
export function preparePeerKit({ projectRoot, baseDir, log }) {
  const source = path.resolve(projectRoot, "../shared/bench");
  const dir = path.join(baseDir, "kit");
  try {
    const wanted = fs.readFileSync(path.join(source, "package.json"), "utf8");
    const installed = path.join(dir, "node_modules/@modelcontextprotocol/server/package.json");
    const have = fs.existsSync(path.join(dir, "package.json")) ? fs.readFileSync(path.join(dir, "package.json"), "utf8") : null;
    if (have !== wanted || !fs.existsSync(installed)) {
      log(`installing the yardstick kit into ${dir} (npm install)`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.cpSync(source, dir, { recursive: true });
      for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o644);
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    }
    const sdkVersion = JSON.parse(fs.readFileSync(installed, "utf8")).version;
    return { script: path.join(dir, "peer-sdk.mjs"), sdkVersion };
  } catch (error) {
    return { error: `the SDK peer is unavailable: ${String(error.message ?? error).split("\n")[0]}` };
  }
}
