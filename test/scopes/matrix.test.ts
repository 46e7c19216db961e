// §5 on every surface, one scope per row, for two kinds of caller — an in-process view compiled from the row, and a
// user signed in with a real OpenID provider whose groups map to the row's ceiling, over HTTP with the row's request
// scope in the URL: the listing, the indexes and their counts, which files read, the
// prompts, skills/list and directory reads — and every address the scope does not admit answers byte for
// byte what an address that never existed answers (only the URI differs), through resources/read, the
// read_resource tool, resources/directory/read, skills/get, prompts/get and get_prompt.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compileScope } from "../../src/resolve/compile-scope.js";
import {
  admits,
  asNever,
  comboOf,
  DIR,
  DIRECTORIES,
  DOCUMENT_URIS,
  DOCUMENTS,
  FALLBACKS,
  LIBRARIES,
  LIBRARY_FILES,
  LIBRARY_ROOTS,
  LISTINGS,
  MANIFESTS,
  MD,
  NEVER,
  NEVER_DIRECTORIES,
  NEVER_DIRECTORY,
  NEVER_EXISTING,
  NEVER_MESSAGE,
  NEVER_PROMPT,
  NEVER_PROMPT_MESSAGE,
  NEVER_SKILL,
  NEVER_SKILL_MESSAGE,
  PROMPTS,
  SCOPES,
  SKILL_FILES,
  SKILLS,
  type Addressed,
  type ScopeRow,
} from "./expected.js";
import {
  attempt,
  connectHttp,
  connectView,
  getSkill,
  listSkillUris,
  notFound,
  readDirectory,
  readResource,
  readTool,
  startFixture,
  textTool,
  type Connection,
  type Served,
} from "./harness.js";
import type { Scope } from "../../src/resolve/index.js";
import type { ScopeSpec } from "../../src/config/index.js";
import type { RequestView } from "../../src/mcp/request-view.js";
import { startProvider, type OpenIdProvider } from "../support/oidc.js";
import { startSignedInServer, type SignedInServer } from "../oauth/signed-in.js";

/** Row i's user belongs to group `row-i-g` for each scope g of its ceiling; a rule grants each group its scope. */
const grantsOf = (row: ScopeRow): readonly ScopeSpec[] =>
  row.ceiling === null ? [{}] : "anyOf" in row.ceiling ? row.ceiling.anyOf : [row.ceiling];
const groupsOf = (i: number): string[] => grantsOf(SCOPES[i] as ScopeRow).map((_grant, g) => `row-${i}-${g}`);
const USERS = Object.fromEntries(SCOPES.map((_row, i) => [`user-${i}`, { groups: groupsOf(i) }]));
const RULES = SCOPES.flatMap((row, i) =>
  grantsOf(row).map((grant, g) => `    - {claim: groups, includes: row-${i}-${g}, scope: ${JSON.stringify(grant)}}\n`),
).join("");

let served: Served;
let provider: OpenIdProvider;
let signedIn: SignedInServer;
beforeAll(async () => {
  served = await startFixture();
  provider = await startProvider({ users: USERS });
  signedIn = await startSignedInServer(
    served.service,
    served.fixture,
    (resource) => `  issuer: ${provider.issuer}\n  resource: ${resource}\n  rules:\n${RULES}`,
  );
}, 60_000);
afterAll(async () => {
  await signedIn?.close();
  await provider?.stop();
  await served.stop();
});

/** The row's request scope as the MCP URL's query, with the same settings as the in-process view. */
function queryOf(request: ScopeSpec, full: boolean): string {
  const params = new URLSearchParams();
  if (request.library !== undefined) params.append("library", request.library);
  for (const category of request.categories ?? []) params.append("categories", category);
  for (const tags of request.tags ?? []) params.append("tags", tags);
  if (full) params.append("skills", "full");
  // The in-process view lists the resource and prompt tools; so does this connection.
  params.append("resources", "off");
  params.append("prompts", "off");
  return params.size === 0 ? "" : `?${params.toString()}`;
}

type Connect = (full: boolean, era?: "legacy" | "modern") => Promise<Connection>;

/** In process: the row's scope compiled here. Signed in: the provider's token for the row's user, whose ceiling the
 *  server computes from its groups, compiled here too for the first test. */
const CALLERS: Record<string, (row: ScopeRow, i: number) => Promise<{ scope: Scope; connect: Connect }>> = {
  "an in-process view": (row) => {
    const compiled = compileScope(served.service.current, row.ceiling, row.request);
    if (!compiled.ok) throw new Error(`the row's scope was refused: ${compiled.message}`);
    const scope = compiled.scope;
    const view: RequestView = { scopeOn: () => scope, fullListing: false, resourceTools: true, promptTools: true, personal: true };
    return Promise.resolve({ scope, connect: (full, era) => connectView(served.service, { ...view, fullListing: full }, era) });
  },
  "a signed-in user": async (row, i) => {
    const token = await provider.signIn(`user-${i}`, signedIn.resource);
    const checked = await signedIn.oauth.authenticate(token);
    if (!checked.ok) throw new Error(`the row's token was refused: ${checked.refusal.description}`);
    const compiled = compileScope(served.service.current, checked.identity.scope, row.request);
    if (!compiled.ok) throw new Error(`the row's scope was refused: ${compiled.message}`);
    return {
      scope: compiled.scope,
      connect: (full, era) => connectHttp(`${signedIn.resource}${queryOf(row.request, full)}`, { authorization: `Bearer ${token}` }, era),
    };
  },
};

const listingRow = ([uri, description]: readonly [string, string]) => ({
  uri,
  name: uri.slice("skill://".length),
  description,
  mimeType: MD,
});

function expectedListing(row: ScopeRow): Record<string, unknown>[] {
  return LIBRARIES.flatMap((lib) => {
    const combo = comboOf(row, lib);
    return combo === null ? [] : (LISTINGS[combo] ?? []).map(listingRow);
  });
}

function expectedDocuments(row: ScopeRow): Record<string, string> {
  return Object.assign({}, ...LIBRARIES.map((lib) => DOCUMENTS[comboOf(row, lib) ?? ""] ?? {}));
}

const visibleSkills = (row: ScopeRow) => SKILLS.filter((s) => admits(row, s.lib, s.plugin));

/** A library root is a directory the scope sees when the scope shows one of its skills. */
function rootChildren(row: ScopeRow, lib: (typeof LIBRARIES)[number]): readonly string[] {
  const combo = comboOf(row, lib);
  return combo === null ? [] : (LIBRARY_ROOTS[combo] ?? []);
}

const ADDRESSED: readonly Addressed[] = [...SKILL_FILES, ...MANIFESTS, ...LIBRARY_FILES, ...FALLBACKS];

describe.each(Object.keys(CALLERS))("%s", (caller) => {
  describe.each(SCOPES.map((row, i) => ({ ...row, i })))("scope: $title", (row) => {
    let scope: Scope;
    let conn: Connection;
    let full: Connection;
    let connect: Connect;
    beforeAll(async () => {
      ({ scope, connect } = await (CALLERS[caller] as (typeof CALLERS)[string])(row, row.i));
      conn = await connect(false);
      full = await connect(true);
    });
    afterAll(async () => {
      await conn.close();
      await full.close();
    });

    test("compiles to the expected library and plugins", () => {
      expect({ library: scope.library, plugins: scope.plugins === null ? null : [...scope.plugins].sort() }).toEqual({
        library: row.library,
        plugins: row.plugins,
      });
    });

    test("resources/list and list_resources give exactly the visible index rows", async () => {
      const rows = expectedListing(row);
      expect((await conn.client.listResources()).resources).toEqual(rows);
      expect(await conn.client.callTool({ name: "list_resources", arguments: {} })).toEqual(textTool(JSON.stringify(rows, null, 2)));
    });

    test("the full listing appends one row per visible skill, sorted by URI", async () => {
      const skills = visibleSkills(row)
        .map((s) => ({ uri: s.uri, name: s.name, description: s.description, mimeType: MD }))
        .sort((a, b) => (a.uri < b.uri ? -1 : 1));
      expect((await full.client.listResources()).resources).toEqual([...expectedListing(row), ...skills]);
    });

    test("the server instructions name exactly the rows of the listing", () => {
      const named = (conn.client.getInstructions() ?? "").match(/skill:\/\/[a-z0-9-]+\/[^\s:]*/g) ?? [];
      expect(named).toEqual(expectedListing(row).map((r) => r.uri));
    });

    test("the never-existing address answers the plain not-found message", async () => {
      expect(await readResource(conn.client, NEVER)).toEqual(notFound(NEVER_MESSAGE, NEVER));
      expect(await readTool(conn.client, NEVER)).toEqual(textTool(NEVER_MESSAGE, true));
    });

    test("generated documents: exactly the expected bodies, every other one absent", async () => {
      const docs = expectedDocuments(row);
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      for (const uri of DOCUMENT_URIS) {
        got[uri] = await readResource(conn.client, uri);
        const body = docs[uri];
        want[uri] =
          body === undefined
            ? notFound(asNever(NEVER_MESSAGE, NEVER, uri), uri)
            : { ok: true, value: { contents: [{ uri, mimeType: MD, text: body }] } };
      }
      expect(got).toEqual(want);
    });

    test("every index line reads back", async () => {
      const docs = expectedDocuments(row);
      const named = Object.values(docs).flatMap((text) => text.match(/^skill:\/\/\S+?(?=:? |$)/gm) ?? []);
      for (const uri of named) expect((await readResource(conn.client, uri)).ok, uri).toBe(true);
    });

    test.each([
      ["skill files", SKILL_FILES],
      ["manifests", MANIFESTS],
      ["library files", LIBRARY_FILES],
      ["plugin-root fallbacks", FALLBACKS],
    ] as const)(
      "%s: read when the plugin is admitted in that library, else absent like a never-existing address",
      async (_kind, addressed) => {
        const got: Record<string, unknown> = {};
        const want: Record<string, unknown> = {};
        for (const a of addressed) {
          got[a.uri] = await readResource(conn.client, a.uri);
          want[a.uri] = admits(row, a.lib, a.plugin)
            ? { ok: true, value: { contents: [{ uri: a.uri, mimeType: a.mimeType, text: a.text }] } }
            : notFound(asNever(NEVER_MESSAGE, NEVER, a.uri), a.uri);
        }
        expect(got).toEqual(want);
      },
    );

    test("the same addresses spelled with dot segments or percent escapes answer the same, URI aside", async () => {
      // skill://eng/triage/SKILL.md => skill://%65ng/x/../triage/SKILL.md and skill://eng/.%2E/%2e/triage/SKILL.md
      const variants = (uri: string): string[] => {
        const rest = uri.slice("skill://".length);
        const cut = rest.indexOf("/");
        const lib = rest.slice(0, cut);
        const path = rest.slice(cut + 1);
        return [
          `skill://%${lib.charCodeAt(0).toString(16)}${lib.slice(1)}/${path}`,
          `skill://${lib}/x/../${path}`,
          `skill://${lib}/.%2E/%2e/${path}`,
        ];
      };
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      for (const a of ADDRESSED) {
        for (const variant of variants(a.uri)) {
          got[variant] = await readResource(conn.client, variant);
          want[variant] = admits(row, a.lib, a.plugin)
            ? { ok: true, value: { contents: [{ uri: variant, mimeType: a.mimeType, text: a.text }] } }
            : notFound(asNever(NEVER_MESSAGE, NEVER, variant), variant);
        }
      }
      expect(got).toEqual(want);
    });

    test("addresses that exist nowhere answer the plain not-found message", async () => {
      for (const uri of NEVER_EXISTING)
        expect(await readResource(conn.client, uri), uri).toEqual(notFound(asNever(NEVER_MESSAGE, NEVER, uri), uri));
    });

    test("read_resource (?resources=off) answers the same bodies and the same messages", async () => {
      const tools = (await conn.client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(["list_resources", "read_resource", "list_prompts", "get_prompt", "search_skills"]);
      const docs = expectedDocuments(row);
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      for (const a of ADDRESSED) {
        got[a.uri] = await readTool(conn.client, a.uri);
        want[a.uri] = admits(row, a.lib, a.plugin) ? textTool(a.text) : textTool(asNever(NEVER_MESSAGE, NEVER, a.uri), true);
      }
      for (const uri of [...DOCUMENT_URIS, ...NEVER_EXISTING]) {
        got[uri] = await readTool(conn.client, uri);
        const body = docs[uri];
        want[uri] = body === undefined ? textTool(asNever(NEVER_MESSAGE, NEVER, uri), true) : textTool(body);
      }
      expect(got).toEqual(want);
    });

    test("reading a directory hints only at what the scope sees; an out-of-scope one gives no hint", async () => {
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      const plain = (uri: string) => asNever(NEVER_MESSAGE, NEVER, uri);
      for (const dir of DIRECTORIES) {
        const message = admits(row, dir.lib, dir.plugin as string) ? `Not found: ${dir.uri}. ${dir.hint}` : plain(dir.uri);
        got[dir.uri] = [await readResource(conn.client, dir.uri), await readTool(conn.client, dir.uri)];
        want[dir.uri] = [notFound(message, dir.uri), textTool(message, true)];
      }
      for (const lib of LIBRARIES) {
        const uri = `skill://${lib}`;
        const shows = visibleSkills(row).some((s) => s.lib === lib);
        const message = shows ? `Not found: ${uri}. It is a library: read ${uri}/_index.md.` : plain(uri);
        got[uri] = [await readResource(conn.client, uri), await readTool(conn.client, uri)];
        want[uri] = [notFound(message, uri), textTool(message, true)];
      }
      for (const uri of NEVER_DIRECTORIES) {
        got[uri] = [await readResource(conn.client, uri), await readTool(conn.client, uri)];
        want[uri] = [notFound(plain(uri), uri), textTool(plain(uri), true)];
      }
      expect(got).toEqual(want);
    });

    test("resources/directory/read lists visible children; an out-of-scope directory answers like a never-existing one", async () => {
      const never = await readDirectory(conn.client, NEVER_DIRECTORY);
      expect(never).toEqual(
        notFound(`Not found: ${NEVER_DIRECTORY}. ${NEVER_MESSAGE.slice(`Not found: ${NEVER}. `.length)}`, NEVER_DIRECTORY),
      );
      const neverMessage = never.ok ? "" : never.failure.message;
      const absent = (uri: string) => notFound(asNever(neverMessage, NEVER_DIRECTORY, uri), uri);
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      for (const dir of DIRECTORIES) {
        got[dir.uri] = await readDirectory(conn.client, dir.uri);
        want[dir.uri] = admits(row, dir.lib, dir.plugin as string) ? { ok: true, value: { resources: dir.entries } } : absent(dir.uri);
      }
      for (const lib of LIBRARIES) {
        const uri = `skill://${lib}`;
        const children = rootChildren(row, lib);
        got[uri] = await readDirectory(conn.client, uri);
        want[uri] =
          children.length > 0
            ? { ok: true, value: { resources: children.map((name) => ({ uri: `${uri}/${name}`, name, mimeType: DIR })) } }
            : absent(uri);
      }
      for (const uri of NEVER_DIRECTORIES) {
        got[uri] = await readDirectory(conn.client, uri);
        want[uri] = absent(uri);
      }
      expect(got).toEqual(want);
    });

    test("search_skills matches exactly the visible skills; a library out of scope is refused like one that never existed", async () => {
      const query = "triage logs deep metrics code review lint release notes proofread";
      const result = (await conn.client.callTool({ name: "search_skills", arguments: { query, limit: 50 } })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      const visible = visibleSkills(row).map((s) => s.uri);
      const found = visible.length === 0 ? [] : (JSON.parse(result.content[0]?.text ?? "") as { uri: string }[]).map((r) => r.uri);
      if (visible.length === 0) expect(result.content[0]?.text).toBe(`No skill matches "${query}".`);
      expect([...found].sort()).toEqual([...visible].sort());
      const refused = (library: string) =>
        `search_skills: no visible library named '${library}' holds skills; list_resources shows the libraries`;
      for (const lib of LIBRARIES) {
        const got = await conn.client.callTool({ name: "search_skills", arguments: { query, library: lib } });
        if (visibleSkills(row).some((s) => s.lib === lib)) expect(got.isError).toBeUndefined();
        else expect(got).toEqual(textTool(refused(lib), true));
      }
      expect(await conn.client.callTool({ name: "search_skills", arguments: { query, library: "nowhere" } })).toEqual(
        textTool(refused("nowhere"), true),
      );
    });

    test("skills/list gives the visible skills; skills/get of any other answers like a never-existing skill", async () => {
      const visible = visibleSkills(row).map((s) => s.uri);
      expect(await listSkillUris(conn.client)).toEqual([...visible].sort());
      const never = await getSkill(conn.client, NEVER_SKILL);
      expect(never).toEqual(notFound(NEVER_SKILL_MESSAGE, NEVER_SKILL));
      for (const s of SKILLS) {
        const got = await getSkill(conn.client, s.uri);
        if (visible.includes(s.uri)) expect(got.ok, s.uri).toBe(true);
        else expect(got, s.uri).toEqual(notFound(asNever(NEVER_SKILL_MESSAGE, NEVER_SKILL, s.uri), s.uri));
      }
    });

    test("a 2026-07-28 connection answers every read exactly like a 2025 one", async () => {
      const modern = await connect(false, "modern");
      try {
        expect(modern.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        const uris = [...ADDRESSED.map((a) => a.uri), ...DOCUMENT_URIS, ...DIRECTORIES.map((d) => d.uri), ...NEVER_EXISTING];
        const contents = (outcome: Awaited<ReturnType<typeof readResource>>) =>
          outcome.ok ? { ok: true, contents: (outcome.value as { contents: unknown }).contents } : outcome;
        const got: Record<string, unknown> = {};
        const want: Record<string, unknown> = {};
        for (const uri of uris) {
          got[uri] = contents(await attempt(() => modern.client.readResource({ uri }, { cacheMode: "bypass" })));
          want[uri] = contents(await readResource(conn.client, uri));
        }
        expect(got).toEqual(want);
      } finally {
        await modern.close();
      }
    });

    test("prompts/list and list_prompts give the visible prompts; any other is not found like a never-existing one", async () => {
      const visible = PROMPTS.filter((p) => admits(row, p.lib, p.plugin));
      expect((await conn.client.listPrompts()).prompts).toEqual(visible.map((p) => p.listing));
      expect(await conn.client.callTool({ name: "list_prompts", arguments: {} })).toEqual(
        textTool(
          JSON.stringify(
            visible.map((p) => p.listing),
            null,
            2,
          ),
        ),
      );
      const neverGet = await attempt(() => conn.client.getPrompt({ name: NEVER_PROMPT, arguments: {} }));
      expect(neverGet).toEqual({
        ok: false,
        failure: { error: "ProtocolError", code: -32602, message: NEVER_PROMPT_MESSAGE, data: { name: NEVER_PROMPT } },
      });
      for (const p of PROMPTS) {
        const got = [
          await attempt(() => conn.client.getPrompt({ name: p.name, arguments: p.args })),
          await conn.client.callTool({ name: "get_prompt", arguments: { name: p.name, arguments: p.args } }),
        ];
        const message = asNever(NEVER_PROMPT_MESSAGE, NEVER_PROMPT, p.name);
        expect(got, p.name).toEqual(
          visible.includes(p)
            ? [
                {
                  ok: true,
                  value: { description: p.listing["description"], messages: [{ role: "user", content: { type: "text", text: p.text } }] },
                },
                textTool(p.text),
              ]
            : [{ ok: false, failure: { error: "ProtocolError", code: -32602, message, data: { name: p.name } } }, textTool(message, true)],
        );
      }
    });
  });
});
