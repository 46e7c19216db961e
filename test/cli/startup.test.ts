// Start-up failures are one line naming what failed and what to do, with a documented exit code, and every flag,
// environment value and token variable is checked before anything is harvested (the harvest record in the cache
// directory is the witness: it is written by the first harvest).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_CONFIG, REPO_ROOT, runCli } from "../support/process.js";

let dir: string;
let cacheDir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "skillshelf-startup-"));
  cacheDir = path.join(dir, "cache");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port this test holds, so the server finds it in use. */
async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const port = (holder.address() as net.AddressInfo).port;
  return { port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

describe("serve cannot listen", () => {
  it("names the host and port in use and the flag to change, exits 4, and harvests nothing", async () => {
    const held = await holdPort();
    try {
      const result = await runCli(["serve", "--config", EXAMPLE_CONFIG, "--port", String(held.port), "--cache-dir", cacheDir]);
      expect(result).toEqual({
        code: 4,
        signal: null,
        stdout: "",
        stderr: `skillshelf: cannot listen on 127.0.0.1:${held.port}: the port is in use; stop what holds it, or choose another with --port (SKILLSHELF_PORT)\n`,
      });
      expect(existsSync(cacheDir)).toBe(false);
    } finally {
      await held.release();
    }
  });

  it("names a host that does not resolve", async () => {
    const result = await runCli([
      "serve",
      "--config",
      EXAMPLE_CONFIG,
      "--host",
      "no-such-host.invalid",
      "--allowed-hosts",
      "tools.example",
      "--cache-dir",
      cacheDir,
    ]);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 4,
      stdout: "",
      stderr:
        "skillshelf: cannot listen on no-such-host.invalid:8000: the host name does not resolve; give an address of this machine with --host (SKILLSHELF_HOST)\n",
    });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("names an address that is not this machine's", async () => {
    // 192.0.2.0/24 is reserved for documentation: no machine holds it.
    const result = await runCli([
      "serve",
      "--config",
      EXAMPLE_CONFIG,
      "--host",
      "192.0.2.7",
      "--allowed-hosts",
      "tools.example",
      "--port",
      "0",
      "--cache-dir",
      cacheDir,
    ]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 4,
      stderr:
        "skillshelf: cannot listen on 192.0.2.7:0: the address is not one of this machine's; give one that is with --host (SKILLSHELF_HOST)\n",
    });
  });
});

describe("settings are checked before anything is harvested", () => {
  it("names every bad flag and environment value at once, by the name the operator used", async () => {
    const result = await runCli(["serve", "--config", EXAMPLE_CONFIG, "--port", "abc", "--cache-dir", cacheDir], {
      env: {
        SKILLSHELF_LOG_LEVEL: "loud",
        SKILLSHELF_DRAIN_SECONDS: "-1",
        SKILLSHELF_ALLOWED_HOSTS: "tools.example, https://x.example:8443",
      },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").slice(0, 4)).toEqual([
      "skillshelf serve: SKILLSHELF_LOG_LEVEL must be one of debug, info, warn, error (got 'loud')",
      "skillshelf serve: --port must be a number from 0 to 65535 (got 'abc')",
      "skillshelf serve: SKILLSHELF_DRAIN_SECONDS must be a number of seconds from 0 to 3600 (got '-1')",
      "skillshelf serve: SKILLSHELF_ALLOWED_HOSTS takes a host name without scheme or port, e.g. tools.example (got 'https://x.example:8443')",
    ]);
    expect(result.stderr).toContain("Run 'skillshelf help serve' for every option.");
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("names every unset token variable at once", async () => {
    const config = path.join(dir, "clients.yaml");
    const example = readFileSync(EXAMPLE_CONFIG, "utf8").replaceAll("./examples/", `${path.join(REPO_ROOT, "examples")}/`);
    writeFileSync(
      config,
      `${example}\nclients:\n  - name: ops\n    token: {env: STARTUP_OPS_TOKEN}\n    admin: true\n` +
        `  - name: bot\n    token: {env: STARTUP_BOT_TOKEN}\n  - name: set\n    token: {env: STARTUP_SET_TOKEN}\n`,
    );
    const result = await runCli(["serve", "--config", config, "--port", "0", "--cache-dir", cacheDir], {
      env: { STARTUP_SET_TOKEN: "a-secret-value-0123456789" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n").slice(0, 2)).toEqual([
      "skillshelf serve: client 'ops': the environment variable STARTUP_OPS_TOKEN that holds its token is not set",
      "skillshelf serve: client 'bot': the environment variable STARTUP_BOT_TOKEN that holds its token is not set",
    ]);
    expect(result.stderr).not.toContain("a-secret-value");
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("refuses a token under 16 characters, saying its length and never its value", async () => {
    const config = path.join(dir, "short.yaml");
    const example = readFileSync(EXAMPLE_CONFIG, "utf8").replaceAll("./examples/", `${path.join(REPO_ROOT, "examples")}/`);
    writeFileSync(config, `${example}\nclients:\n  - name: bot\n    token: {env: STARTUP_SHORT_TOKEN}\n`);
    const result = await runCli(["serve", "--config", config, "--port", "0", "--cache-dir", cacheDir], {
      env: { STARTUP_SHORT_TOKEN: "x".repeat(15) },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      "skillshelf serve: client 'bot': the token in STARTUP_SHORT_TOKEN is 15 characters; use at least 16 (openssl rand -base64 24 makes one)",
    );
    expect(result.stderr).not.toContain("x".repeat(15));
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("refuses a flag that does not apply to the transport", async () => {
    const result = await runCli(["serve", "--config", EXAMPLE_CONFIG, "--transport", "stdio", "--port", "9000", "--cache-dir", cacheDir]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("skillshelf serve: --port applies to --transport http only");
    expect(existsSync(cacheDir)).toBe(false);
  });
});
