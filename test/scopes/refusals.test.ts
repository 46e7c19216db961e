// §5.1 refusals: a scope that names nothing that exists (or, under a client, nothing inside the ceiling) is
// refused with -32602 and a message naming what does exist, on every request of that scope, before anything is
// served. A library whose plugins all failed is not refused: it is empty, and /health says why. Also how the
// settings are read: a header wins over the query parameter of the same setting, and repeats are lists.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as z from "zod";
import { compileScope } from "../../src/resolve/compile-scope.js";
import { parseRequestSettings } from "../../src/mcp/request-view.js";
import { connectHttp, listSkillUris, startFixture, startHttp, toFailure, type HttpServer, type Served } from "./harness.js";
import type { ScopeSpec } from "../../src/config/index.js";

const LIBS = "dead, docs, eng";
const CATEGORIES = "engineering, legacy, writing";
const TAGS = "docs, old, oncall, prose, public, quality, review, runbooks, sre";

let served: Served;
let http: HttpServer;
beforeAll(async () => {
  served = await startFixture();
  http = await startHttp(served.service, { clients: [], anonymous: true });
});
afterAll(async () => {
  await http.close();
  await served.stop();
});

const refusal = (request: ScopeSpec, ceiling: ScopeSpec | null = null): string => {
  const result = compileScope(served.service.current, ceiling, request);
  return result.ok ? `(not refused: ${result.scope.key})` : result.message;
};

describe("each refusal message, exactly", () => {
  test.each([
    {
      title: "a library that does not exist",
      request: { library: "nope" },
      message: `Scope refused: library 'nope' does not exist; the libraries are: ${LIBS}.`,
    },
    {
      title: "a library named with a /",
      request: { library: "eng/observability" },
      message: `Scope refused: library 'eng/observability' names a folder; a scope names a whole library: ${LIBS}.`,
    },
    {
      title: "an unknown category",
      request: { categories: ["nope"] },
      message: `Scope refused: category 'nope' does not exist; the categories are: ${CATEGORIES}.`,
    },
    {
      title: "an unknown category beside a known one",
      request: { categories: ["writing", "nope"] },
      message: `Scope refused: category 'nope' does not exist; the categories are: ${CATEGORIES}.`,
    },
    { title: "an unknown tag", request: { tags: ["nope"] }, message: `Scope refused: tag 'nope' does not exist; the tags are: ${TAGS}.` },
    {
      title: "an unknown part of an all-of item",
      request: { tags: ["oncall,nope"] },
      message: `Scope refused: tag 'nope' does not exist; the tags are: ${TAGS}.`,
    },
    {
      title: "an all-of item no plugin carries",
      request: { tags: ["oncall,public"] },
      message: "Scope refused: the scope tags=oncall,public shows nothing: no plugin of any library matches it.",
    },
    {
      title: "a library and a tag that exist apart",
      request: { library: "docs", tags: ["oncall"] },
      message: "Scope refused: the scope library=docs tags=oncall shows nothing: no plugin of library 'docs' matches it.",
    },
    {
      title: "a category and a tag that exist apart",
      request: { categories: ["writing"], tags: ["review"] },
      message: "Scope refused: the scope categories=writing tags=review shows nothing: no plugin of any library matches it.",
    },
  ] as const)("$title", ({ request, message }) => {
    expect(refusal(request)).toBe(message);
  });

  test.each([
    { title: "a library whose only plugin failed", request: { library: "dead" } },
    { title: "that library with its plugin's category", request: { library: "dead", categories: ["legacy"] } },
    { title: "a keyword used as a tag", request: { tags: ["sre"] } },
    { title: "a tag and a keyword all-of", request: { tags: ["review,quality"] } },
  ] as const)("not refused: $title", ({ request }) => {
    expect(compileScope(served.service.current, null, request).ok).toBe(true);
  });
});

describe("outside a client's ceiling is refused exactly like what does not exist", () => {
  const support = { library: "docs", tags: ["public"] };
  const engineering = { categories: ["engineering"] };
  const publicOnly = { tags: ["public"] };
  test.each([
    {
      title: "support-bot asks for library eng",
      ceiling: support,
      outside: { library: "eng" },
      absent: { library: "nope" },
      message: "Scope refused: library 'eng' does not exist; the libraries are: docs.",
    },
    {
      title: "support-bot asks for library dead",
      ceiling: support,
      outside: { library: "dead" },
      absent: { library: "nope" },
      message: "Scope refused: library 'dead' does not exist; the libraries are: docs.",
    },
    {
      title: "support-bot asks for category engineering",
      ceiling: support,
      outside: { categories: ["engineering"] },
      absent: { categories: ["nope"] },
      message: "Scope refused: category 'engineering' does not exist; the categories are: writing.",
    },
    {
      title: "support-bot asks for tag review",
      ceiling: support,
      outside: { tags: ["review"] },
      absent: { tags: ["nope"] },
      message: "Scope refused: tag 'review' does not exist; the tags are: docs, prose, public.",
    },
    {
      title: "support-bot asks for keyword sre",
      ceiling: support,
      outside: { tags: ["public,sre"] },
      absent: { tags: ["public,nope"] },
      message: "Scope refused: tag 'sre' does not exist; the tags are: docs, prose, public.",
    },
    {
      title: "eng-bot asks for category writing",
      ceiling: engineering,
      outside: { categories: ["writing"] },
      absent: { categories: ["nope"] },
      message: "Scope refused: category 'writing' does not exist; the categories are: engineering.",
    },
    {
      title: "eng-bot asks for tag public",
      ceiling: engineering,
      outside: { tags: ["public"] },
      absent: { tags: ["nope"] },
      message: "Scope refused: tag 'public' does not exist; the tags are: oncall, quality, review, runbooks, sre.",
    },
    {
      title: "eng-bot asks for library dead, which holds nothing in its ceiling",
      ceiling: engineering,
      outside: { library: "dead" },
      absent: { library: "nope" },
      message: "Scope refused: library 'dead' does not exist; the libraries are: docs, eng.",
    },
    {
      title: "public-bot asks for library eng, which holds nothing in its ceiling",
      ceiling: publicOnly,
      outside: { library: "eng" },
      absent: { library: "nope" },
      message: "Scope refused: library 'eng' does not exist; the libraries are: docs.",
    },
  ] as const)("$title", ({ ceiling, outside, absent, message }) => {
    const name = (spec: ScopeSpec): string => spec.library ?? spec.categories?.[0] ?? (spec.tags?.[0] ?? "").split(",").pop() ?? "";
    expect(refusal(outside, ceiling)).toBe(message);
    expect(
      refusal(absent, ceiling)
        .split(`'${name(absent)}'`)
        .join(`'${name(outside)}'`),
    ).toBe(message);
  });

  test("a client never sees a library name its ceiling holds nothing of, even when naming a typo", () => {
    expect(refusal({ library: "nope" }, { tags: ["public"] })).toBe(
      "Scope refused: library 'nope' does not exist; the libraries are: docs.",
    );
    expect(refusal({ library: "nope" }, { categories: ["engineering"] })).toBe(
      "Scope refused: library 'nope' does not exist; the libraries are: docs, eng.",
    );
  });

  test("a request that names the ceiling's own library narrows nothing and is not refused", () => {
    const result = compileScope(served.service.current, support, { library: "docs" });
    expect(result.ok && { library: result.scope.library, plugins: [...(result.scope.plugins ?? [])] }).toEqual({
      library: "docs",
      plugins: ["writing-kit"],
    });
  });
});

describe("reading the request settings", () => {
  const settings = (query: string, headers: Record<string, string> = {}) =>
    parseRequestSettings(new URLSearchParams(query), new Headers(headers));
  const off = { fullListing: false, resourceTools: false, promptTools: false };
  test.each([
    { title: "nothing", query: "", headers: {}, want: { scope: { categories: [], tags: [] }, ...off } },
    { title: "a query library", query: "library=eng", headers: {}, want: { scope: { library: "eng", categories: [], tags: [] }, ...off } },
    {
      title: "the header library beats the query",
      query: "library=eng",
      headers: { "X-Skill-Library": " docs " },
      want: { scope: { library: "docs", categories: [], tags: [] }, ...off },
    },
    {
      title: "repeated categories are a list",
      query: "categories=writing&categories=engineering",
      headers: {},
      want: { scope: { categories: ["writing", "engineering"], tags: [] }, ...off },
    },
    {
      title: "the categories header (comma list) beats the query",
      query: "categories=legacy",
      headers: { "X-Skill-Categories": "writing, engineering" },
      want: { scope: { categories: ["writing", "engineering"], tags: [] }, ...off },
    },
    {
      title: "repeated tags are any-of items, commas all-of",
      query: "tags=oncall,runbooks&tags=public",
      headers: {},
      want: { scope: { categories: [], tags: ["oncall,runbooks", "public"] }, ...off },
    },
    {
      title: "the tags header separates items with ';' and beats the query",
      query: "tags=old",
      headers: { "X-Skill-Tags": "oncall,runbooks; public" },
      want: { scope: { categories: [], tags: ["oncall,runbooks", "public"] }, ...off },
    },
    {
      title: "listing and tool switches from the query",
      query: "skills=full&resources=off&prompts=off",
      headers: {},
      want: { scope: { categories: [], tags: [] }, fullListing: true, resourceTools: true, promptTools: true },
    },
    {
      title: "switch headers beat the query",
      query: "skills=full&resources=off&prompts=on",
      headers: { "X-Skill-Listing": "short", "X-MCP-Resources": "on", "X-MCP-Prompts": "OFF" },
      want: { scope: { categories: [], tags: [] }, fullListing: false, resourceTools: false, promptTools: true },
    },
  ] as { title: string; query: string; headers: Record<string, string>; want: unknown }[])("$title", ({ query, headers, want }) => {
    expect(settings(query, headers)).toEqual(want);
  });
});

interface Raw {
  readonly status: number;
  readonly body: unknown;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? "" : (JSON.parse(text) as unknown) };
}

const MODERN = { "mcp-protocol-version": "2026-07-28" };
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Requests of every kind, both eras: each must get the same refusal, before anything is served. */
const REQUESTS: readonly { readonly title: string; readonly body: Record<string, unknown>; readonly headers?: Record<string, string> }[] = [
  {
    title: "initialize",
    body: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
  },
  { title: "resources/list", body: { jsonrpc: "2.0", id: "two", method: "resources/list", params: {} } },
  { title: "resources/read", body: { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "skill://eng/triage/SKILL.md" } } },
  {
    title: "tools/call read_resource",
    body: { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "read_resource", arguments: { uri: "skill://eng/_index.md" } } },
  },
  {
    title: "prompts/get",
    body: { jsonrpc: "2.0", id: 5, method: "prompts/get", params: { name: "eng_page", arguments: { service: "x" } } },
  },
  { title: "skills/list", body: { jsonrpc: "2.0", id: 6, method: "skills/list", params: {} } },
  {
    title: "resources/directory/read",
    body: { jsonrpc: "2.0", id: 7, method: "resources/directory/read", params: { uri: "skill://eng" } },
  },
  {
    title: "server/discover (2026-07-28)",
    body: { jsonrpc: "2.0", id: 8, method: "server/discover", params: { _meta: ENVELOPE } },
    headers: { ...MODERN, "mcp-method": "server/discover" },
  },
  {
    title: "resources/read (2026-07-28)",
    body: { jsonrpc: "2.0", id: 9, method: "resources/read", params: { uri: "skill://eng/_index.md", _meta: ENVELOPE } },
    headers: { ...MODERN, "mcp-method": "resources/read", "mcp-name": "skill://eng/_index.md" },
  },
];

describe("over HTTP, a refused scope refuses every request with -32602", () => {
  test.each([
    {
      title: "a library that does not exist",
      query: "library=nope",
      headers: {},
      message: `Scope refused: library 'nope' does not exist; the libraries are: ${LIBS}.`,
    },
    {
      title: "a library named with a / (header)",
      query: "",
      headers: { "X-Skill-Library": "eng/observability" },
      message: `Scope refused: library 'eng/observability' names a folder; a scope names a whole library: ${LIBS}.`,
    },
    {
      title: "an unknown category",
      query: "categories=nope",
      headers: {},
      message: `Scope refused: category 'nope' does not exist; the categories are: ${CATEGORIES}.`,
    },
    {
      title: "an unknown tag (header)",
      query: "",
      headers: { "X-Skill-Tags": "review; nope" },
      message: `Scope refused: tag 'nope' does not exist; the tags are: ${TAGS}.`,
    },
    {
      title: "a combination that shows nothing",
      query: "library=docs&tags=oncall",
      headers: {},
      message: "Scope refused: the scope library=docs tags=oncall shows nothing: no plugin of library 'docs' matches it.",
    },
    {
      title: "a valid query overridden by a bad header",
      query: "library=eng",
      headers: { "X-Skill-Library": "nope" },
      message: `Scope refused: library 'nope' does not exist; the libraries are: ${LIBS}.`,
    },
  ] as { title: string; query: string; headers: Record<string, string>; message: string }[])(
    "$title",
    async ({ query, headers, message }) => {
      const url = `${http.origin}/mcp${query === "" ? "" : `?${query}`}`;
      for (const request of REQUESTS) {
        const got = await post(url, request.body, { ...headers, ...request.headers });
        expect(got, request.title).toEqual({
          status: 200,
          body: { jsonrpc: "2.0", id: request.body["id"], error: { code: -32602, message } },
        });
      }
      // A notification gets no answer at all, and nothing is served.
      expect(await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).toEqual({ status: 202, body: "" });
      // The SDK client fails to connect with the same error.
      let failure: unknown = null;
      try {
        await connectHttp(url, headers);
      } catch (error) {
        failure = toFailure(error);
      }
      expect(failure).toMatchObject({ code: -32602, message });
    },
  );
});

describe("over HTTP, accepted scopes", () => {
  const listing = async (query: string, headers: Record<string, string> = {}): Promise<string[]> => {
    const conn = await connectHttp(`${http.origin}/mcp${query === "" ? "" : `?${query}`}`, headers);
    try {
      return (await conn.client.listResources()).resources.map((row) => row.uri);
    } finally {
      await conn.close();
    }
  };
  const ENG_ALL = [
    "skill://eng/_index.md",
    "skill://eng/observability/_index.md",
    "skill://eng/quality/_index.md",
    "skill://eng/_files.md",
  ];
  const DOCS_ALL = ["skill://docs/_index.md", "skill://docs/editing/_index.md", "skill://docs/quality/_index.md", "skill://docs/_files.md"];
  const DOCS_W = ["skill://docs/_index.md", "skill://docs/editing/_index.md", "skill://docs/_files.md"];
  const ENG_O = ["skill://eng/_index.md", "skill://eng/observability/_index.md", "skill://eng/_files.md"];
  const ENG_R = ["skill://eng/_index.md", "skill://eng/quality/_index.md", "skill://eng/_files.md"];
  const DOCS_R = ["skill://docs/_index.md", "skill://docs/quality/_index.md", "skill://docs/_files.md"];

  test.each([
    { title: "no scope", query: "", headers: {}, want: [...DOCS_ALL, ...ENG_ALL] },
    { title: "query library", query: "library=eng", headers: {}, want: ENG_ALL },
    { title: "the library header beats the query", query: "library=eng", headers: { "X-Skill-Library": "docs" }, want: DOCS_ALL },
    {
      title: "a good library header beats a bad query library",
      query: "library=nope",
      headers: { "X-Skill-Library": "docs" },
      want: DOCS_ALL,
    },
    {
      title: "the categories header beats the query",
      query: "categories=engineering",
      headers: { "X-Skill-Categories": "writing" },
      want: DOCS_W,
    },
    { title: "the tags header beats the query", query: "tags=public", headers: { "X-Skill-Tags": "oncall,runbooks" }, want: ENG_O },
    { title: "repeated categories are any-of", query: "categories=writing&categories=legacy", headers: {}, want: DOCS_W },
    {
      title: "repeated tags are any-of, commas all-of",
      query: "tags=oncall,runbooks&tags=public",
      headers: {},
      want: [...DOCS_W, ...ENG_O],
    },
    {
      title: "';' separates tag items in the header",
      query: "",
      headers: { "X-Skill-Tags": "review ; public" },
      want: [...DOCS_ALL, ...ENG_R],
    },
    { title: "a keyword matches like a tag", query: "tags=quality", headers: {}, want: [...DOCS_R, ...ENG_R] },
    { title: "a library whose plugins all failed is empty, not refused", query: "library=dead", headers: {}, want: [] },
  ] as { title: string; query: string; headers: Record<string, string>; want: string[] }[])("$title", async ({ query, headers, want }) => {
    expect(await listing(query, headers)).toEqual(want);
  });

  test("repeated X-Skill-Tags header lines are any-of items, like repeated query parameters", async () => {
    // Two header lines (Node folds them into one value joined by ", " on the way in) are two values: any-of.
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/list", params: {} });
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${http.origin}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-skill-tags": ["oncall,runbooks", "public"],
        },
      });
      req.on("response", (res) => {
        let chunks = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (chunks += chunk));
        res.on("end", () => resolve(chunks));
      });
      req.on("error", reject);
      req.end(body);
    });
    // A legacy reply is one SSE event; a refusal is plain JSON.
    const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
    const reply = JSON.parse(data) as { result?: { resources: { uri: string }[] }; error?: { message: string } };
    expect(reply.error?.message ?? reply.result?.resources.map((row) => row.uri)).toEqual([...DOCS_W, ...ENG_O]);
  });

  test("?resources=off lists the resource tools, and read_resource answers out-of-scope addresses like absent ones", async () => {
    const conn = await connectHttp(`${http.origin}/mcp?library=docs&tags=public&resources=off`);
    try {
      expect((await conn.client.listTools()).tools.map((tool) => tool.name)).toEqual(["list_resources", "read_resource", "search_skills"]);
      const read = (uri: string) => conn.client.callTool({ name: "read_resource", arguments: { uri } });
      const plain = (uri: string) => ({
        content: [
          {
            type: "text",
            text: `Not found: ${uri}. Start from the resource listing (resources/list, or the list_resources tool) to see what this server serves.`,
          },
        ],
        isError: true,
      });
      expect(await read("skill://docs/guide/tone.md")).toEqual({ content: [{ type: "text", text: "# Tone\n" }] });
      for (const uri of [
        "skill://nolib/never.md",
        "skill://docs/docs/style.md",
        "skill://docs/code-review/SKILL.md",
        "skill://eng/triage/SKILL.md",
        "skill://docs/quality",
        "skill://eng",
      ]) {
        expect(await read(uri), uri).toEqual(plain(uri));
      }
      expect(await read("skill://docs/editing")).toEqual({
        content: [{ type: "text", text: "Not found: skill://docs/editing. It is a folder: read skill://docs/editing/_index.md." }],
        isError: true,
      });
    } finally {
      await conn.close();
    }
  });

  test("the empty library serves nothing on any surface, and /health says why", async () => {
    const conn = await connectHttp(`${http.origin}/mcp?library=dead`);
    try {
      expect((await conn.client.listResources()).resources).toEqual([]);
      expect((await conn.client.listPrompts()).prompts).toEqual([]);
      expect(await listSkillUris(conn.client)).toEqual([]);
    } finally {
      await conn.close();
    }
    const health = (await (await fetch(`${http.origin}/health`)).json()) as {
      status: string;
      libraries: Record<string, unknown>;
      plugins: Record<string, unknown>;
      fetches: Record<string, unknown>;
    };
    const why = "The plugin root, the root of fetch ./plugins/missing-kit, does not exist.";
    expect(health.status).toBe("degraded");
    expect(health.libraries["dead"]).toEqual({
      description: "Nothing works here",
      plugins: ["broken-kit"],
      skills: 0,
      prompts: 0,
      files: 0,
    });
    expect(health.plugins["broken-kit"]).toMatchObject({
      status: "failed",
      fetch: "./plugins/missing-kit",
      libraries: ["dead"],
      skills: 0,
      error: why,
    });
    expect(health.fetches["./plugins/missing-kit"]).toMatchObject({ status: "failed", error: why });
  });
});

describe("cacheScope on 2026-07-28 results", () => {
  const cacheFields = async (query: string, headers: Record<string, string> = {}) => {
    const conn = await connectHttp(`${http.origin}/mcp${query === "" ? "" : `?${query}`}`, headers, "modern");
    try {
      const list = (await conn.client.listResources(undefined, { cacheMode: "bypass" })) as { cacheScope?: unknown };
      const read = (await conn.client.readResource({ uri: "skill://docs/_index.md" }, { cacheMode: "bypass" })) as { cacheScope?: unknown };
      const skills = await conn.client.request({ method: "skills/list", params: {} }, z.looseObject({ cacheScope: z.string() }));
      return [list.cacheScope, read.cacheScope, skills.cacheScope];
    } finally {
      await conn.close();
    }
  };
  test("public when nothing narrows the answer", async () => {
    expect(await cacheFields("")).toEqual(["public", "public", "public"]);
  });
  test.each([
    { title: "a query scope", query: "library=docs", headers: {} },
    { title: "a header scope", query: "", headers: { "X-Skill-Categories": "writing, engineering" } },
  ] as { title: string; query: string; headers: Record<string, string> }[])("private under $title", async ({ query, headers }) => {
    expect(await cacheFields(query, headers)).toEqual(["private", "private", "private"]);
  });
});
