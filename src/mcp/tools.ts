// §6: four tools for tool-only clients. Their number never grows with the shelf; they are listed only when
// the request says the client lacks the feature, and always callable.
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import { listingRows, type ListingRow, type ReadOutcome, type Scope, visiblePrompts } from "../resolve/index.js";
import { listingPage } from "./listing-pages.js";
import type { Page } from "./pages.js";
import { formatPromptListing, getPrompt } from "./prompts.js";
import { MAX_LIMIT, parseSearchRequest, type SearchOutcome, type SearchRequest } from "../search/index.js";
import type { Shelf } from "../shelf/index.js";

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const RESOURCE_TOOLS: readonly Tool[] = [
  {
    name: "list_resources",
    title: "List skill indexes",
    description:
      "List where to start on this skill server: one row per library index (skill://<library>/_index.md), top folder index and shared-file list (_files.md), as JSON. Read one of them next with read_resource. A long listing comes in pages: pass the cursor a page ends with to get the next.",
    inputSchema: {
      type: "object",
      properties: { cursor: { type: "string", description: "The cursor the previous page ended with; omit it for the first page." } },
      additionalProperties: false,
    },
    annotations: ANNOTATIONS,
  },
  {
    name: "read_resource",
    title: "Read a skill:// address",
    description:
      "Read one skill:// address: an _index.md (what a library or folder holds), a skill's SKILL.md (its instructions: skill://<library>/<folder>/<name>/SKILL.md), its _manifest (the other files it ships, JSON), skill://<library>/_files.md (shared files skills cite), or any file those name. Directories are not files: reading one fails with the address to read instead. Relative links in a SKILL.md resolve against its own address.",
    inputSchema: {
      type: "object",
      properties: { uri: { type: "string", description: "A skill:// address, e.g. skill://engineering/_index.md" } },
      required: ["uri"],
      additionalProperties: false,
    },
    annotations: ANNOTATIONS,
  },
];

export const PROMPT_TOOLS: readonly Tool[] = [
  {
    name: "list_prompts",
    title: "List prompts",
    description: "List the prompts this server serves (name, description, arguments) as JSON. Render one with get_prompt.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: ANNOTATIONS,
  },
  {
    name: "get_prompt",
    title: "Render a prompt",
    description: "Render one prompt by name with its arguments (all strings) and return its text, ready to follow.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "A prompt name from list_prompts, e.g. engineering_review" },
        arguments: { type: "object", additionalProperties: { type: ["string", "null"] }, description: "Argument values by name" },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: ANNOTATIONS,
  },
];

/** Listed to every client: finding a skill by what it does is useful whatever else the client supports. */
export const SEARCH_TOOL: Tool = {
  name: "search_skills",
  title: "Search skills",
  description:
    "Find skills by what they do: ranked rows (uri of the SKILL.md, name, one-line description, score) as JSON, best first. Matches names, descriptions, folders, tags and the skill text, with prefixes and typos. Read a row's uri next.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What the skill should do, in plain words, e.g. terraform drift detection" },
      library: { type: "string", description: "Only skills of this library" },
      limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: 10, description: "How many rows at most" },
    },
    required: ["query"],
    additionalProperties: false,
  },
  annotations: ANNOTATIONS,
};

export const TOOL_NAMES: ReadonlySet<string> = new Set([...RESOURCE_TOOLS, ...PROMPT_TOOLS, SEARCH_TOOL].map((tool) => tool.name));

function textResult(text: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: "text", text }], isError: true } : { content: [{ type: "text", text }] };
}

/** One page of the listing as indented JSON, and when more follow a second text naming the next cursor. */
function listResources(rows: readonly ListingRow[], cursor: unknown): CallToolResult {
  if (cursor !== undefined && typeof cursor !== "string")
    return textResult("list_resources takes an optional string argument 'cursor'", true);
  let page: Page<ListingRow>;
  try {
    page = listingPage(rows, cursor, true);
  } catch {
    return textResult("Invalid cursor: pass back the cursor of the previous page unchanged, or omit it for the first page.", true);
  }
  const text = JSON.stringify(page.items, null, 2);
  if (page.nextCursor === undefined) return textResult(text);
  const next = `More rows follow: call list_resources with {"cursor": ${JSON.stringify(page.nextCursor)}}.`;
  return {
    content: [
      { type: "text", text },
      { type: "text", text: next },
    ],
  };
}

/** How the tools read and search (counted by the caller) and what they tell of a prompt rendered. */
export interface ToolReads {
  readonly read: (uri: string) => Promise<ReadOutcome>;
  readonly search: (request: SearchRequest) => Promise<SearchOutcome>;
  readonly prompted?: (library: string, name: string) => void;
}

/** Bad arguments are a tool error the model can read and correct, not a protocol error. */
export async function callTool(
  shelf: Shelf,
  scope: Scope,
  full: boolean,
  serve: ToolReads,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  switch (name) {
    case "list_resources":
      return listResources(listingRows(shelf, scope, full), args["cursor"]);
    case "read_resource": {
      if (typeof args["uri"] !== "string")
        return textResult("read_resource needs a string argument 'uri', e.g. skill://engineering/_index.md", true);
      const outcome = await serve.read(args["uri"]);
      if (!outcome.ok) return textResult(outcome.message, true);
      if ("blob" in outcome)
        return { content: [{ type: "resource", resource: { uri: outcome.uri, mimeType: outcome.mimeType, blob: outcome.blob } }] };
      return textResult(outcome.text);
    }
    case "list_prompts":
      return textResult(JSON.stringify(visiblePrompts(shelf, scope).map(formatPromptListing), null, 2));
    case "get_prompt": {
      const promptArgs = args["arguments"] ?? {};
      if (typeof args["name"] !== "string")
        return textResult("get_prompt needs a string argument 'name'; list_prompts shows the names", true);
      if (!isStringRecord(promptArgs)) return textResult("get_prompt's 'arguments' must be an object of strings", true);
      const outcome = getPrompt(shelf, scope, args["name"], promptArgs);
      if (!outcome.ok) return textResult(outcome.message, true);
      serve.prompted?.(outcome.library, outcome.name);
      return textResult(outcome.text);
    }
    case "search_skills": {
      const parsed = parseSearchRequest(args);
      if (!parsed.ok) return textResult(parsed.message, true);
      const outcome = await serve.search(parsed.request);
      if (!outcome.ok) return textResult(outcome.message, true);
      if (outcome.rows.length === 0) return textResult(`No skill matches "${parsed.request.query}".`);
      return textResult(JSON.stringify(outcome.rows));
    }
    default:
      throw new RangeError(`callTool: ${name} is not one of ${[...TOOL_NAMES].join(", ")}`);
  }
}

function isStringRecord(value: unknown): value is Record<string, string | null> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => entry === null || typeof entry === "string")
  );
}
