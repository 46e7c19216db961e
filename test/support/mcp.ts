// Client-side helpers for the contract suite: result schemas for the extension methods, error capture, and
// reading a resource as the exact bytes it stands for.
import type { Client } from "@modelcontextprotocol/client";
import * as z from "zod";

const CacheFields = { ttlMs: z.number().optional(), cacheScope: z.string().optional() };

export const SkillEntrySchema = z.looseObject({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
});
export type WireSkillEntry = z.infer<typeof SkillEntrySchema>;

export const SkillsPageSchema = z.looseObject({ skills: z.array(SkillEntrySchema), nextCursor: z.string().optional(), ...CacheFields });
export const SkillGetSchema = z.looseObject({ skill: SkillEntrySchema, ...CacheFields });
export const DirectoryPageSchema = z.looseObject({
  resources: z.array(
    z.looseObject({
      uri: z.string(),
      name: z.string(),
      mimeType: z.string().optional(),
      size: z.number().optional(),
      description: z.string().optional(),
    }),
  ),
  nextCursor: z.string().optional(),
  ...CacheFields,
});

export function listSkills(client: Client, cursor?: string): Promise<z.infer<typeof SkillsPageSchema>> {
  return client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } }, SkillsPageSchema);
}

/** One page of resources/list: the SDK client's listResources() without a cursor walks every page itself. */
export function listResourcesPage(client: Client, cursor?: string): Promise<z.infer<typeof DirectoryPageSchema>> {
  return client.request({ method: "resources/list", params: cursor === undefined ? {} : { cursor } }, DirectoryPageSchema);
}

export function getSkill(client: Client, uri: string): Promise<z.infer<typeof SkillGetSchema>> {
  return client.request({ method: "skills/get", params: { uri } }, SkillGetSchema);
}

export function readDirectory(client: Client, uri: string, cursor?: string): Promise<z.infer<typeof DirectoryPageSchema>> {
  return client.request(
    { method: "resources/directory/read", params: cursor === undefined ? { uri } : { uri, cursor } },
    DirectoryPageSchema,
  );
}

/** Every skill of skills/list, following nextCursor to the end. */
export async function listAllSkills(client: Client): Promise<WireSkillEntry[]> {
  const all: WireSkillEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await listSkills(client, cursor);
    all.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

export interface RpcError {
  readonly code: unknown;
  readonly message: string;
  readonly data: unknown;
}

/** The JSON-RPC error a call failed with; fails the test when the call succeeds. */
export async function rpcError(call: Promise<unknown>): Promise<RpcError> {
  try {
    await call;
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    return { code: e.code, message: String(e.message), data: e.data };
  }
  throw new Error("expected the call to fail with a JSON-RPC error, but it succeeded");
}

export interface ReadContent {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

/** resources/read, bypassing the 2026 client's response cache so every call reaches the server. */
export async function readOne(client: Client, uri: string): Promise<ReadContent> {
  const result = await client.readResource({ uri }, { cacheMode: "bypass" });
  if (result.contents.length !== 1) throw new Error(`expected one content for ${uri}, got ${result.contents.length}`);
  return result.contents[0] as ReadContent;
}

/** The bytes a read stands for: UTF-8 of `text`, or the decoded `blob`. */
export function bytesOf(content: ReadContent): Buffer {
  if (content.text !== undefined) return Buffer.from(content.text, "utf8");
  if (content.blob !== undefined) return Buffer.from(content.blob, "base64");
  throw new Error(`content of ${content.uri} has neither text nor blob`);
}

/** A tool result's single text block. */
export function toolText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const first = content[0];
  if (content.length !== 1 || first?.type !== "text" || first.text === undefined)
    throw new Error(`expected one text block, got ${JSON.stringify(result)}`);
  return first.text;
}
