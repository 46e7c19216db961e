// A throwaway PostgreSQL cluster for tests: Debian's `postgresql` binaries (.ci/run installs them), initdb in a
// temporary directory, a server on loopback only, run as an unprivileged user (`nobody` when the tests run as
// root: PostgreSQL refuses to run as root). Stopped and started again to test an outage; removed after the file.
import { execFile } from "node:child_process";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./temp.js";

const run = promisify(execFile);
const ROOT = "/usr/lib/postgresql";
const NOBODY = 65534;

/** The bin directory of the newest installed PostgreSQL, or null when none is (the tests then skip, saying why). */
export function postgresBin(): string | null {
  if (!existsSync(ROOT)) return null;
  const versions = readdirSync(ROOT)
    .filter((name) => existsSync(path.join(ROOT, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : path.join(ROOT, versions[0], "bin");
}

export const POSTGRES_MISSING =
  "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql (.ci/run installs it)";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

export class TestCluster {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(bin: string): Promise<TestCluster> {
    const dir = tempDir("skillshelf-pg-");
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(dir, NOBODY, NOBODY);
    const cluster = new TestCluster(bin, dir, await freePort());
    await cluster.exec("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    await cluster.start();
    return cluster;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
    await this.exec("pg_ctl", ["-D", path.join(this.dir, "data"), "-l", path.join(this.dir, "log"), "-o", options, "-w", "start"]);
  }

  /** Stops the server (fast: open connections are ended). */
  async stop(): Promise<void> {
    await this.exec("pg_ctl", ["-D", path.join(this.dir, "data"), "-m", "fast", "-w", "stop"]);
  }

  private async exec(tool: string, args: readonly string[]): Promise<void> {
    const binary = path.join(this.bin, tool);
    const asRoot = process.getuid?.() === 0;
    await run(asRoot ? "runuser" : binary, asRoot ? ["-u", "nobody", "--", binary, ...args] : [...args], { cwd: this.dir });
  }
}
