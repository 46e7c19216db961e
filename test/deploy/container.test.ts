// The container image without a container engine: the Dockerfile is linted and read, and the steps it runs are
// run here for real. deploy/container/install-app.sh (the build stage's install) fills a temporary app dir; the
// app dir is made read-only; the server starts with the image's ENV, ENTRYPOINT (tini) and CMD, as an
// unprivileged user when the test runs as root, with the config and the cache volume at temporary paths; the
// HEALTHCHECK command is run against it; SIGTERM through tini stops it with exit 0.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createRequire } from "node:module";
import { DockerfileParser, type Instruction, type JSONInstruction } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, assertBuilt } from "../support/process.js";
import { MCP_HEADERS, send } from "../support/http.js";
import { waitFor } from "../support/wait.js";

// A CommonJS module whose typings claim a default export: loaded with require, typed from its declarations.
const dockerignore = createRequire(import.meta.url)("@balena/dockerignore") as typeof import("@balena/dockerignore").default;
const DOCKERFILE = fs.readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8");
const PARSED = DockerfileParser.parse(DOCKERFILE);
const FROMS = PARSED.getFROMs();
/** The instructions of the last stage: what the image is at run time. */
const RUNTIME: Instruction[] = PARSED.getInstructions().filter(
  (i) => i.getRange().start.line >= FROMS[FROMS.length - 1]!.getRange().start.line,
);
const BUILD: Instruction[] = PARSED.getInstructions().filter(
  (i) =>
    i.getRange().start.line >= FROMS[0]!.getRange().start.line && i.getRange().start.line < FROMS[FROMS.length - 1]!.getRange().start.line,
);
const NOBODY = 65534;
const AS_ROOT = process.getuid?.() === 0;

function only(stage: Instruction[], keyword: string): Instruction {
  const found = stage.filter((i) => i.getKeyword() === keyword);
  expect(found.length, `${keyword} instructions`).toBe(1);
  return found[0]!;
}
const jsonArgs = (i: Instruction): string[] => (i as JSONInstruction).getJSONStrings().map((s) => s.getJSONValue());
/** ENV instructions of the runtime stage as one map. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of RUNTIME.filter((x) => x.getKeyword() === "ENV"))
    for (const arg of i.getArguments()) {
      const [key, ...rest] = arg.getValue().split("=");
      env[key!] = rest.join("=");
    }
  return env;
}

describe("the Dockerfile", () => {
  test("lints clean, and the linter does flag a broken copy", () => {
    expect(validate(DOCKERFILE)).toEqual([]);
    expect(validate(DOCKERFILE.replace("EXPOSE 8000", "EXPOSE 80a0")).length).toBe(1);
  });

  test("two stages on the official Node 20 slim image", () => {
    expect(PARSED.getInitialARGs().map((a) => a.getArgumentsContent())).toEqual(["NODE_IMAGE=node:20-bookworm-slim"]);
    expect(FROMS.map((f) => [f.getImage(), f.getBuildStage()])).toEqual([
      ["${NODE_IMAGE}", "build"],
      ["${NODE_IMAGE}", null],
    ]);
  });

  test("the runtime stage: git and tini from apt, an unprivileged user, the app copied from the build stage", () => {
    const run = RUNTIME.filter((i) => i.getKeyword() === "RUN").map((i) => i.getArgumentsContent() ?? "");
    expect(run.length).toBe(1);
    expect(run[0]).toMatch(/apt-get install -y --no-install-recommends ca-certificates git tini /);
    expect(run[0]).toMatch(/useradd --system --uid 10001 --gid 10001 /);
    expect(run[0]).toMatch(/chown 10001:10001 \/var\/cache\/skillshelf /);
    expect(only(RUNTIME, "USER").getArgumentsContent()).toBe("10001:10001");
    const copy = only(RUNTIME, "COPY") as Instruction & { getFlags(): { toString(): string }[] };
    expect(copy.getFlags().map((f) => f.toString())).toEqual(["--from=build"]);
    expect(copy.getArgumentsContent()).toBe("/opt/skillshelf /opt/skillshelf");
    expect(imageEnv()).toEqual({
      NODE_ENV: "production",
      SKILLSHELF_CONFIG: "/etc/skillshelf/config.yaml",
      SKILLSHELF_CACHE_DIR: "/var/cache/skillshelf",
      SKILLSHELF_HOST: "0.0.0.0",
      SKILLSHELF_ALLOW_ANY_HOST: "true",
      SKILLSHELF_PORT: "8000",
    });
    expect(only(RUNTIME, "VOLUME").getArgumentsContent()).toBe('["/var/cache/skillshelf"]');
    expect(only(RUNTIME, "EXPOSE").getArgumentsContent()).toBe(imageEnv().SKILLSHELF_PORT);
    expect(jsonArgs(only(RUNTIME, "ENTRYPOINT"))).toEqual(["/usr/bin/tini", "--", "node", "/opt/skillshelf/dist/cli.js"]);
    expect(jsonArgs(only(RUNTIME, "CMD"))).toEqual(["serve"]);
    const healthcheck = only(RUNTIME, "HEALTHCHECK") as Instruction & { getFlags(): { toString(): string }[] };
    expect(healthcheck.getFlags().map((f) => f.toString())).toEqual([
      "--interval=15s",
      "--timeout=5s",
      "--start-period=30s",
      "--retries=3",
    ]);
    expect(healthcheck.getArgumentsContent()).toBe('CMD ["node", "/opt/skillshelf/healthcheck.mjs"]');
  });

  test(".dockerignore keeps exactly what the build stage copies in the context", () => {
    const ignore = dockerignore({ ignorecase: false }).add(fs.readFileSync(path.join(REPO_ROOT, ".dockerignore"), "utf8").split("\n"));
    const copied = BUILD.filter((i) => i.getKeyword() === "COPY").flatMap((i) =>
      i
        .getArguments()
        .slice(0, -1)
        .map((a) => a.getValue()),
    );
    expect(copied).toEqual([
      "package.json",
      "package-lock.json",
      "tsconfig.json",
      "tsconfig.build.json",
      "config.schema.json",
      "README.md",
      "src",
      "deploy/container",
    ]);
    for (const file of ["src/cli.ts", "deploy/container/install-app.sh", "deploy/container/healthcheck.mjs", ...copied])
      expect(ignore.ignores(file), file).toBe(false);
    for (const file of ["node_modules/ajv/package.json", "dist/cli.js", ".git/HEAD", "test/deploy/container.test.ts", "docs/deploy.md"])
      expect(ignore.ignores(file), file).toBe(true);
  });
});

/** The install step as the build stage's RUN line writes it, with the image's paths mapped onto this machine. */
function installCommand(): string[] {
  const line = BUILD.filter((i) => i.getKeyword() === "RUN")
    .map((i) => i.getArgumentsContent() ?? "")
    .find((text) => text.includes("install-app.sh"));
  expect(line).toBe("npm run build && sh deploy/container/install-app.sh /src /opt/skillshelf");
  return line!.split(" && ")[1]!.split(" ");
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("the image's steps, run here", () => {
  let base: string;
  let app: string;
  let cache: string;
  let config: string;
  let child: ChildProcess | undefined;
  let nodePid: number | undefined;
  let exited: Promise<number | string>;
  const stderr: string[] = [];
  let port: number;
  const served = path.join(REPO_ROOT, "examples", "engineering-kit", "skills", "code-review", "references", "checklist.md");

  /** The image's paths, mapped onto the temporary tree. */
  const mapPath = (value: string): string =>
    value.replace("/opt/skillshelf", app).replace("/etc/skillshelf", path.dirname(config)).replace("/var/cache/skillshelf", cache);

  beforeAll(async () => {
    assertBuilt();
    base = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-container-"));
    fs.chmodSync(base, 0o755);
    app = path.join(base, "opt", "skillshelf");
    cache = path.join(base, "var", "cache", "skillshelf");
    config = path.join(base, "etc", "skillshelf", "config.yaml");
    const [sh, script, , dest] = installCommand();
    expect(dest).toBe("/opt/skillshelf");
    await promisify(execFile)(sh!, [script!, REPO_ROOT, mapPath(dest!)], { cwd: REPO_ROOT });
    // The app dir is read-only to everyone; the cache volume is the unprivileged user's, mode 0700 as in the image.
    await promisify(execFile)("chmod", ["-R", "a-w", app]);
    fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
    if (AS_ROOT) fs.chownSync(cache, NOBODY, NOBODY);
    const skills = path.join(base, "srv", "engineering-kit");
    fs.cpSync(path.join(REPO_ROOT, "examples", "engineering-kit"), skills, { recursive: true });
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(
      config,
      `plugins:\n  - {name: eng-kit, source: "${skills}", files: ["shared/**"]}\nlibraries:\n  - {name: engineering, plugins: [eng-kit]}\n`,
    );
    for (const dir of [path.join(base, "opt"), path.join(base, "var"), path.dirname(cache), path.join(base, "etc"), path.join(base, "srv")])
      fs.chmodSync(dir, 0o755);
  }, 120_000);

  afterAll(async () => {
    // tini and the node process under it: a SIGKILL to tini alone would leave node running.
    for (const pid of [nodePid, child?.pid])
      if (pid !== undefined)
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
    if (child !== undefined) await exited;
    if (base !== undefined) {
      await promisify(execFile)("chmod", ["-R", "u+w", base]);
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  test("the app dir holds the packed files and the production dependencies only", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(fs.readdirSync(app).sort()).toEqual(
      ["README.md", "config.schema.json", "dist", "healthcheck.mjs", "node_modules", "package-lock.json", "package.json"].sort(),
    );
    for (const [name, version] of Object.entries(pkg.dependencies)) {
      const installed = JSON.parse(fs.readFileSync(path.join(app, "node_modules", name, "package.json"), "utf8")) as { version: string };
      expect(installed.version, name).toBe(version);
    }
    for (const name of Object.keys(pkg.devDependencies)) expect(fs.existsSync(path.join(app, "node_modules", name)), name).toBe(false);
    expect(fs.readFileSync(path.join(app, "dist", "cli.js"))).toEqual(fs.readFileSync(path.join(REPO_ROOT, "dist", "cli.js")));
  });

  test("ENTRYPOINT and CMD serve as an unprivileged user from a read-only app dir; HEALTHCHECK passes; SIGTERM exits 0", async () => {
    const before = listFiles(app);
    port = await freePort();
    const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    for (const [key, value] of Object.entries(imageEnv())) env[key] = mapPath(value);
    env.SKILLSHELF_PORT = String(port);
    const [init, ...argv] = [...jsonArgs(only(RUNTIME, "ENTRYPOINT")), ...jsonArgs(only(RUNTIME, "CMD"))].map(mapPath);
    child = spawn(init!, argv, {
      cwd: "/",
      env,
      stdio: ["ignore", "ignore", "pipe"],
      ...(AS_ROOT ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    const proc = child;
    exited = new Promise((resolve) => proc.on("close", (code, signal) => resolve(code ?? signal ?? "unknown")));
    proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(...chunk.split("\n").filter((l) => l !== "")));
    await waitFor(
      () => stderr.some((line) => line.includes(`listening on http://0.0.0.0:${port}/mcp`)),
      () => `the server to listen; its log so far:\n${stderr.join("\n")}`,
      20_000,
    );

    // The node process under tini runs as the unprivileged user.
    const children = fs.readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, "utf8").trim().split(" ").map(Number);
    expect(children.length).toBe(1);
    nodePid = children[0]!;
    expect(fs.readFileSync(`/proc/${nodePid}/cmdline`, "utf8").split("\0").slice(1, 3)).toEqual([
      path.join(app, "dist", "cli.js"),
      "serve",
    ]);
    const uid = /^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${nodePid}/status`, "utf8"))![1];
    expect(Number(uid)).toBe(AS_ROOT ? NOBODY : process.getuid!());

    const read = await send(`http://127.0.0.1:${port}`, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "resources/read",
        params: { uri: "skill://engineering/code-review/references/checklist.md" },
      }),
    });
    expect(read.status).toBe(200);
    const message = JSON.parse(
      read.text
        .split("\n")
        .find((l) => l.startsWith("data: "))!
        .slice(6),
    ) as {
      result: { contents: { text: string }[] };
    };
    expect(message.result.contents[0]!.text).toBe(fs.readFileSync(served, "utf8"));

    // HEALTHCHECK, as the image runs it.
    const health = JSON.parse(/CMD (\[.*\])$/.exec(only(RUNTIME, "HEALTHCHECK").getArgumentsContent()!)![1]!) as string[];
    const [cmd, ...rest] = health.map(mapPath);
    const probe = await promisify(execFile)(cmd === "node" ? process.execPath : cmd!, rest, { env }).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(probe).toBe(0);

    // The cache volume is written (the harvest record); the app dir is not.
    await waitFor(
      () => fs.existsSync(path.join(cache, "harvest.json")),
      () => listFiles(cache).join(", "),
    );
    expect(fs.statSync(path.join(cache, "harvest.json")).uid).toBe(AS_ROOT ? NOBODY : process.getuid!());
    expect(listFiles(app)).toEqual(before);

    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    // With the server gone the HEALTHCHECK fails.
    const after = await promisify(execFile)(process.execPath, rest, { env }).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(after).toBe(1);
  });
});
