// Logs that speak: every line of --log-format json parses (the SDK's console warnings included), the first shelf's
// problems are logged once, a change of state is one line, and at debug every request is one line naming its
// client and never its token.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, send } from "../support/http.js";
import { EXAMPLE_CONFIG, REPO_ROOT, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";

interface Line {
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

function lines(server: ServerProcess): Line[] {
  return server
    .stderr()
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
}

/** Resolves once a log line matches. */
function logged(server: ServerProcess, match: (line: Line) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      const complete = server.stderr().slice(0, server.stderr().lastIndexOf("\n") + 1);
      const found = complete
        .split("\n")
        .filter((line) => line !== "")
        .some((line) => match(JSON.parse(line) as Line));
      if (!found) return;
      server.child.stderr?.off("data", check);
      resolve();
    };
    server.child.stderr?.on("data", check);
    check();
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "skillshelf-logs-"));
});
afterAll(() => {
  killStragglers();
  rmSync(dir, { recursive: true, force: true });
});

const BAD_NAME = {
  level: "warn",
  msg: "skipped",
  plugin: "writing-kit",
  path: "skills/Bad_Name",
  reason:
    'The name "Bad_Name" breaks the naming rule (1-64 characters of a-z, 0-9 and \'-\', no hyphen first or last, no \'--\'): character 1 ("B") is an upper-case letter. The nearest valid name is "bad-name".',
};

describe("serve --log-format json", () => {
  it("routes the SDK's console warnings through the logger, logs the first shelf's skip once, and a request at debug", async () => {
    const config = path.join(dir, "clients.yaml");
    const example = readFileSync(EXAMPLE_CONFIG, "utf8").replaceAll("./examples/", `${path.join(REPO_ROOT, "examples")}/`);
    writeFileSync(config, `${example}\nanonymous: true\nclients:\n  - name: bot\n    token: {env: LOGS_BOT_TOKEN}\n`);
    const server = await startHttpServer(["--config", config, "--log-format", "json", "--log-level", "debug"], {
      // The SDK warns on the console when this is set; the warning must come out as one of our JSON lines.
      env: { LOGS_BOT_TOKEN: "bot-secret-token", MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL: "true" },
    });
    await logged(server, (line) => line.msg === "skipped");
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "resources/read",
      params: { uri: "skill://writing/release-notes/SKILL.md" },
    });
    const read = await send(server.origin, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, Authorization: "Bearer bot-secret-token" },
      body,
    });
    expect(read.status).toBe(200);
    await logged(server, (line) => line.msg === "request");
    await server.stop();

    const records = lines(server); // throws if any line is not JSON
    expect(records.filter((line) => line.level === "warn").map(({ time: _time, ...rest }) => rest)).toEqual([
      {
        level: "warn",
        msg: "MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL is enabled - HTTP issuer URLs are allowed. Do not use in production.",
      },
      BAD_NAME,
    ]);
    const request = records.find((line) => line.msg === "request");
    expect({ ...request, time: undefined, ms: typeof request?.["ms"] }).toEqual({
      time: undefined,
      level: "debug",
      msg: "request",
      method: "POST",
      route: "/mcp",
      mcp: "resources/read",
      target: "skill://writing/release-notes/SKILL.md",
      client: "bot",
      outcome: "ok",
      status: 200,
      ms: "number",
    });
    expect(server.stderr()).not.toContain("bot-secret-token");
  });

  it("logs a change of state once: a skipped skill that goes away", async () => {
    const kit = path.join(dir, "writing-kit");
    cpSync(path.join(REPO_ROOT, "examples", "writing-kit"), kit, { recursive: true });
    const config = path.join(dir, "writing.yaml");
    writeFileSync(
      config,
      `plugins:\n  - name: writing-kit\n    source: ./writing-kit\nlibraries:\n  - name: writing\n    description: d\n    plugins: [writing-kit]\n`,
    );
    const server = await startHttpServer(["--config", config, "--log-format", "json", "--cache-dir", path.join(dir, "cache")]);
    await logged(server, (line) => line.msg === "skipped");
    rmSync(path.join(kit, "skills", "Bad_Name"), { recursive: true });
    await logged(server, (line) => line.msg === "shelf rebuilt");
    await server.stop();
    const records = lines(server).map(({ time: _time, seconds: _seconds, ...rest }) => rest);
    expect(records.filter((line) => line.msg !== "listening on " + server.url.href && line.level !== "debug")).toEqual([
      { level: "info", msg: "shelf built", generation: 1, libraries: 1, skills: 2 },
      BAD_NAME,
      { level: "info", msg: "no longer skipped", plugin: "writing-kit", path: "skills/Bad_Name" },
      { level: "info", msg: "shelf rebuilt", generation: 2, skills: 2, prompts: 2, status: "ok" },
      { level: "info", msg: "not ready: draining" },
      { level: "info", msg: "draining in-flight requests" },
      { level: "info", msg: "stopped" },
    ]);
  });
});
