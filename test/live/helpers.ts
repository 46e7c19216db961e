// Shared by the source and live tests: a config from YAML text, a logger that keeps its lines, and reads that go
// through the resolver and the content reader exactly as a client's read does.
import { parseConfig } from "../../src/config/index.js";
import type { Config } from "../../src/config/types.js";
import { createLogger, type Logger } from "../../src/log/index.js";
import { FULL_SCOPE, resolve } from "../../src/resolve/index.js";
import { readFallbackFile, readServedFile } from "../../src/live/served-bytes.js";
import type { Shelf } from "../../src/shelf/index.js";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { assemble } from "../../src/assemble/index.js";

/** The config of `yaml`, as if written in `<baseDir>/skillshelf.yaml`; a broken one fails the test. */
export function configOf(yaml: string, baseDir: string): Config {
  const result = parseConfig(yaml, "skillshelf.yaml", baseDir);
  if (!result.ok) throw new Error(`bad test config: ${JSON.stringify(result.errors)}`);
  return result.config;
}

export interface KeptLog extends Logger {
  readonly lines: string[];
}

/** A JSON logger at debug level that keeps every line it writes. */
export function keptLog(): KeptLog {
  const lines: string[] = [];
  const logger = createLogger(
    (line) => lines.push(line),
    "json",
    "debug",
    () => new Date(0),
  );
  return { lines, log: (...args) => logger.log(...args) };
}

/** The text a client reading `uri` gets, or null for not found / unreadable. */
export async function readText(shelf: Shelf, uri: string): Promise<string | null> {
  const answer = resolve(shelf, FULL_SCOPE, uri);
  if (answer.kind === "document") return answer.text;
  if (answer.kind === "notFound") return null;
  const content = answer.kind === "file" ? await readServedFile(answer.file) : await readFallbackFile(answer.disk);
  return content.ok ? new TextDecoder().decode(content.bytes) : null;
}

export { waitFor } from "../support/wait.js";

/** YAML for a git+file source named `local` over `base`. */
export function gitSource(base: string, extra = ""): string {
  return `sources:\n  - name: local\n    url: git+file://${base}\n${extra}`;
}

/** Writes `text` at `rel` under `base`, creating the folders on the way. */
export function writeUnder(base: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
  writeFileSync(path.join(base, rel), text);
}

/** Two plugins in one library: `pk`, tagged `kw-pub` through its plugin.json keywords (which a test may take away),
 *  and `pz`, tagged in the config. A client with `scope: {tags: [kw-pub]}` sees both until pk loses its keyword. */
export const KEYWORD_CEILING_CONFIG = `plugins:
  - {name: pk, source: ./pk}
  - {name: pz, source: ./pz, tags: [kw-pub]}
libraries:
  - {name: shelf, plugins: [pk, pz]}
`;

/** One build of `yaml` (read as if in `base`) at `generation`, with a fixed clock and no git. */
export async function buildShelfOf(yaml: string, base: string, generation: number): Promise<Shelf> {
  return (await assemble(configOf(yaml, base), { generation, built: "2026-01-01T00:00:00.000Z" })).shelf;
}
