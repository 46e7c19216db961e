#!/usr/bin/env node
// What 2025-era HTTP sessions cost: the built CLI serves a private copy of the example shelf (watched), then the
// bench opens sessions the way a 2025-era client does (initialize, notifications/initialized, a GET stream held
// open) in steps, and reads the server's RSS (/proc) and V8 heap (/metrics) at each step once the process is idle.
// At each step it also edits a SKILL.md and times how long until every open stream has heard list_changed. Prints
// JSON.
//   npm run build && node bench/sessions.mjs [--steps=1,200,1000] [--warmup=20]
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { memoryOf, spawnHttpServer, stop, waitIdle } from "./lib/proc.mjs";
import { percentile } from "./lib/stats.mjs";
import { scriptArgs } from "./lib/args.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROJECT = path.resolve(HERE, "..");
const { args } = scriptArgs();
const steps = (args.steps ?? "1,200,1000").split(",").map(Number);
const warmup = Number(args.warmup ?? 20);
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/;
const LOGS_MD = "examples/engineering-kit/skills/observability/logs/SKILL.md";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-sessions-"));
fs.cpSync(path.join(PROJECT, "examples"), path.join(dir, "examples"), { recursive: true });
const config = path.join(dir, "skills.yaml");
fs.writeFileSync(
  config,
  [
    "plugins:",
    "  - {name: eng-kit, source: ./examples/engineering-kit, files: ['shared/**']}",
    "  - {name: writing-kit, source: ./examples/writing-kit}",
    "libraries:",
    "  - {name: engineering, plugins: [eng-kit]}",
    "  - {name: writing, plugins: [writing-kit]}",
    "",
  ].join("\n"),
);

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
let port = 0;

function request(method, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method,
        agent,
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk) => (text += chunk));
        res.once("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.once("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** One session as a 2025-era client opens it: its id and its open GET stream. */
async function openSession(index) {
  const init = await request(
    "POST",
    {},
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: `bench-${index}`, version: "1" } },
    },
  );
  const id = init.headers["mcp-session-id"];
  if (init.status !== 200 || typeof id !== "string") throw new Error(`initialize answered ${init.status}: ${init.text.slice(0, 200)}`);
  const headers = { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25" };
  await request("POST", headers, { jsonrpc: "2.0", method: "notifications/initialized" });
  const stream = await new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path: "/mcp", agent: false, headers: { ...headers, Accept: "text/event-stream" } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET answered ${res.statusCode}`));
        let text = "";
        const session = { id, req, heardAt: undefined };
        res.setEncoding("utf8").on("data", (chunk) => {
          text += chunk;
          if (session.heardAt === undefined && text.includes("notifications/resources/list_changed")) session.heardAt = performance.now();
        });
        resolve(session);
      },
    );
    req.once("error", reject);
  });
  return stream;
}

/** Edits a SKILL.md and times, from the write, when each open stream hears list_changed. */
async function editAndListen(sessions, round) {
  for (const session of sessions) session.heardAt = undefined;
  const t0 = performance.now();
  fs.writeFileSync(path.join(dir, LOGS_MD), `---\nname: logs\ndescription: Edited by the sessions bench, round ${round}.\n---\n# Logs\n`);
  const deadline = t0 + 30_000;
  while (sessions.some((s) => s.heardAt === undefined) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const delays = sessions
    .filter((s) => s.heardAt !== undefined)
    .map((s) => s.heardAt - t0)
    .sort((a, b) => a - b);
  return { heard: delays.length, firstMs: delays[0], medianMs: percentile(delays, 0.5), lastMs: delays.at(-1) };
}

async function heapMB() {
  const text = await new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/metrics" }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c) => (body += c));
        res.once("end", () => resolve(body));
      })
      .once("error", reject);
  });
  const line = text.split("\n").find((l) => l.startsWith("nodejs_heap_size_used_bytes "));
  const open = text.split("\n").find((l) => l.startsWith("skillshelf_mcp_sessions "));
  return { heapMB: Number(line.split(" ")[1]) / 1048576, open: Number(open.split(" ")[1]) };
}

const server = await spawnHttpServer(
  process.execPath,
  [
    path.join(PROJECT, "dist/cli.js"),
    "serve",
    "--config",
    config,
    "--port",
    "0",
    "--cache-dir",
    path.join(dir, "cache"),
    "--max-sessions",
    String(Math.max(...steps) + warmup),
  ],
  { ready: LISTENING },
);
port = server.port;
const out = { node: process.version, cpus: os.cpus().length, steps: [] };
try {
  // Warm-up: the first sessions load the transport's code; they are ended again.
  for (let i = 0; i < warmup; i++) {
    const session = await openSession(i);
    session.req.destroy();
    await request("DELETE", { "Mcp-Session-Id": session.id, "MCP-Protocol-Version": "2025-11-25" });
  }
  await waitIdle(server.pid, { maxMs: 20_000 });
  const base = { sessions: 0, rssMB: memoryOf(server.pid).rssMB, ...(await heapMB()) };
  out.base = base;
  const sessions = [];
  for (const count of steps) {
    const t0 = performance.now();
    while (sessions.length < count) sessions.push(await openSession(sessions.length));
    const openMs = performance.now() - t0;
    await waitIdle(server.pid, { maxMs: 20_000 });
    const now = { rssMB: memoryOf(server.pid).rssMB, ...(await heapMB()) };
    out.steps.push({
      sessions: count,
      open: now.open,
      rssMB: now.rssMB,
      heapMB: now.heapMB,
      rssKBPerSession: ((now.rssMB - base.rssMB) * 1024) / count,
      heapKBPerSession: ((now.heapMB - base.heapMB) * 1024) / count,
      msPerOpen: openMs / (count - (out.steps.at(-1)?.sessions ?? 0)),
      notify: await editAndListen(sessions, out.steps.length),
    });
  }
  for (const session of sessions) session.req.destroy();
} finally {
  agent.destroy();
  await stop(server.child);
  fs.rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
