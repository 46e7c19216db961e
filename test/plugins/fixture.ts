// A shelf of two libraries served on loopback with the plugin routes: `kit` (skills with files, a library file, a
// command) and `ops`; a narrow client sees `ops` only, a wide one everything; anonymous callers are asked for a token.
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createHttpApp } from "../../src/http/app.js";
import { FeedTokens } from "../../src/http/feeds.js";
import { ContentCache, ShelfReader } from "../../src/live/index.js";
import { ShelfService } from "../../src/live/shelf-service.js";
import { PluginRepos } from "../../src/plugins/index.js";
import { configOf } from "../live/helpers.js";
import { makeTemp } from "../sources/git-fixture.js";

export const WIDE_TOKEN = "wide-token-0123456789";
export const NARROW_TOKEN = "narrow-token-0123456789";
export const WIDE = { name: "wide", token: WIDE_TOKEN, scope: {}, admin: false };
export const NARROW = { name: "narrow", token: NARROW_TOKEN, scope: { library: "ops" }, admin: false };

export function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const skillMd = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** The plugin folders of the shelf, under a new temporary folder. */
export function writeShelf(): string {
  const dir = makeTemp("skillshelf-plugin-shelf-");
  const kit = path.join(dir, "kit");
  write(
    path.join(kit, "skills", "pdf", "SKILL.md"),
    skillMd("pdf", "Fill PDF forms.", "Run scripts/fill.py; see ${CLAUDE_PLUGIN_ROOT}/shared/style.md."),
  );
  write(path.join(kit, "skills", "pdf", "scripts", "fill.py"), "print('fill')\n");
  write(path.join(kit, "skills", "notes", "SKILL.md"), skillMd("notes", "Take notes.", "Write them down."));
  write(path.join(kit, "shared", "style.md"), "# Style\n");
  write(path.join(kit, "commands", "review.md"), "---\ndescription: Review a change\n---\nReview $ARGUMENTS.\n");
  write(path.join(dir, "ops", "skills", "runbook", "SKILL.md"), skillMd("runbook", "Run the on-call runbook.", "Page the owner."));
  return dir;
}

export const SHELF_YAML = `plugins:
  - {name: kit, source: ./kit, files: ["shared/**"], tags: [tools], category: productivity, description: The team's kit}
  - {name: ops, source: ./ops, tags: [oncall], description: On-call}
libraries:
  - {name: kit, plugins: [kit]}
  - {name: ops, plugins: [ops]}
`;

export interface Served {
  readonly origin: string;
  readonly service: ShelfService;
  readonly reader: ShelfReader;
  readonly feeds: FeedTokens;
  readonly repos: PluginRepos;
  close(): Promise<void>;
}

/** One replica: its own cache directory (or the plugin repositories' folder given, as after a restart), the same
 *  shelf folder. */
export async function serve(shelfDir: string, reposDir = makeTemp("skillshelf-repos-")): Promise<Served> {
  const service = await ShelfService.start(configOf(SHELF_YAML, shelfDir), () => new Date(0), { cacheDir: makeTemp() });
  const reader = new ShelfReader(service.holder, new ContentCache());
  const feeds = new FeedTokens({ secret: new Uint8Array(32).fill(9), lifetimeSeconds: 86_400, revoked: new Set() }, [NARROW, WIDE]);
  const repos = new PluginRepos({ dir: reposDir });
  const { app } = createHttpApp(
    service.holder,
    { shelf: reader, version: "test", ttlMs: 60_000 },
    {
      host: "127.0.0.1",
      access: { clients: [WIDE, NARROW], anonymous: false },
      feeds,
      pluginRepos: repos,
      reindex: () => service.rebuild(),
      onError: (error) => {
        throw error;
      },
    },
  );
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    service,
    reader,
    feeds,
    repos,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    },
  };
}
