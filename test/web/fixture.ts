// A shelf for the page's tests, written to a temporary directory: library `pub` (plugin pub-kit, holding a hostile
// skill, a binary file, an HTML file and a skipped skill) and library `secret` (plugin secret-kit), served by the
// real HTTP app on an ephemeral loopback port with three clients: `reader` sees `pub` only, `ops` is an admin that
// sees everything, `nobody-admin` sees `secret` only. Anonymous callers see nothing unless `anonymous` is given.
import { mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { loadConfig, type ScopeSpec } from "../../src/config/index.js";
import type { Access, Client } from "../../src/http/access.js";
import { createHttpApp } from "../../src/http/app.js";
import type { FeedTokens } from "../../src/http/feeds.js";
import type { ServerMetrics } from "../../src/http/metrics.js";
import { ContentCache, ShelfReader, ShelfService } from "../../src/live/index.js";
import { tempDir } from "../support/temp.js";

export const TOKENS = { reader: "tok-reader-3f9a1c7e55", ops: "tok-ops-b27d40e9a1", secretOnly: "tok-secret-9e1f2a6b30" } as const;

/** The smallest valid PNG (1×1, transparent). */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** A SKILL.md body written to break out of any page that renders it carelessly. */
export const HOSTILE_BODY = [
  "# Hostile",
  "",
  "Before the script.",
  "<script>window.pwned = 1</script>",
  "After the script.",
  "",
  '<img src="x" onerror="window.pwned = 2">',
  '<p onclick="window.pwned = 3" style="color:red">Styled paragraph.</p>',
  "",
  "[a javascript link](javascript:window.pwned=4)",
  '<a href="JaVaScRiPt:window.pwned=5">mixed case</a>',
  '<a href="java&#x09;script:window.pwned=6">entity tab</a>',
  '<iframe src="https://example.invalid/"></iframe>',
  '<svg onload="window.pwned = 7"><circle r="1"/></svg>',
  '<form action="https://example.invalid/steal"><input name="x"><button>Send</button></form>',
  "",
  "[the notes](notes/page.html) and [outside](../../../../etc/passwd) and [web](https://example.org/docs).",
  "",
].join("\n");

const skillMd = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

export const HOSTILE_SKILL_MD = skillMd("hostile", "A skill whose body tries to run script.", HOSTILE_BODY);

export interface WebShelf {
  readonly root: string;
  readonly configPath: string;
}

/** Writes the fixture; `extra` adds files (path from the fixture root → content). */
export function writeWebShelf(extra: Readonly<Record<string, string | Buffer>> = {}): WebShelf {
  const root = tempDir("skillshelf-web-");
  const files: Record<string, string | Buffer> = {
    "pub-kit/skills/hostile/SKILL.md": HOSTILE_SKILL_MD,
    "pub-kit/skills/hostile/notes/page.html": "<!doctype html><script>window.pwned = 8</script><p>notes</p>\n",
    "pub-kit/skills/hostile/assets/logo.png": PNG,
    "pub-kit/skills/guides/terraform-drift/SKILL.md": skillMd(
      "terraform-drift",
      "Find and fix drift between Terraform state and the real cloud resources.",
      "# Drift\n\nRun `terraform plan -refresh-only` first.\n",
    ),
    "pub-kit/skills/guides/release-checklist/SKILL.md": skillMd(
      "release-checklist",
      "Walk through the release checklist before shipping.",
      "# Release\n",
    ),
    "pub-kit/skills/Bad_Name/SKILL.md": skillMd("Bad_Name", "Skipped, as the name breaks the rule.", "# Bad\n"),
    "pub-kit/prompts/triage.md":
      "---\ndescription: Triage an incident\narguments:\n  - name: service\n    required: true\n---\nTriage {{ service }}.\n",
    "secret-kit/skills/vault-rotation/SKILL.md": skillMd(
      "vault-rotation",
      "Rotate the zebrafish vault credentials.",
      "# Vault\n\nquokka\n",
    ),
    ...extra,
  };
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split("/"));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  const configPath = path.join(root, "skillshelf.yaml");
  writeFileSync(
    configPath,
    [
      "plugins:",
      "  - {name: pub-kit, source: ./pub-kit, watch: false}",
      "  - {name: secret-kit, source: ./secret-kit, watch: false}",
      "libraries:",
      "  - {name: pub, description: What everyone may read, plugins: [pub-kit]}",
      "  - {name: secret, description: Kept for the few, plugins: [secret-kit]}",
      "",
    ].join("\n"),
  );
  return { root, configPath };
}

export const CLIENTS: readonly Client[] = [
  { name: "reader", token: TOKENS.reader, scope: { library: "pub" }, admin: false },
  { name: "ops", token: TOKENS.ops, scope: {}, admin: true },
  { name: "secret-only", token: TOKENS.secretOnly, scope: { library: "secret" }, admin: false },
];

export interface Served {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly service: ShelfService;
  /** Requests the server refused, one line each, as its log would name them. */
  readonly refusals: string[];
  close(): Promise<void>;
}

export interface ServeOptions {
  readonly clients?: readonly Client[];
  /** `false`: no anonymous access; a spec: the anonymous ceiling; `true`: everything. */
  readonly anonymous?: boolean | ScopeSpec;
  /** Personal install links; absent: none. */
  readonly feeds?: FeedTokens;
  /** Counts requests (and names each to its callback). */
  readonly metrics?: ServerMetrics;
}

/** The real HTTP app over the shelf at `configPath`, on 127.0.0.1 and an ephemeral port. */
export async function serveWeb(configPath: string, options: ServeOptions = {}): Promise<Served> {
  const service = await ShelfService.start(await loadConfig(configPath), () => new Date(0));
  const clients = options.clients ?? CLIENTS;
  const anonymous = options.anonymous ?? clients.length === 0;
  const access: Access = {
    clients,
    anonymous: anonymous !== false,
    ...(typeof anonymous === "object" ? { anonymousScope: anonymous } : {}),
  };
  const refusals: string[] = [];
  const { app, mcp } = createHttpApp(
    service.holder,
    { shelf: new ShelfReader(service.holder, new ContentCache()), version: "0.0.0-test", ttlMs: 0 },
    {
      host: "127.0.0.1",
      access,
      ...(options.feeds === undefined ? {} : { feeds: options.feeds }),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      reindex: () => service.rebuild(),
      onError: () => undefined,
      onRefused: (reason, fields) => refusals.push(`${fields.status} ${fields.method} ${fields.path}: ${reason}`),
    },
  );
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    listening.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    service,
    refusals,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mcp.close();
      await service.close();
    },
  };
}
