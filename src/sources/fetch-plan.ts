// What one address asks for: a local folder, a folder of a file source, or a path (and ref) of a fetched source
// (git, WebDAV, any kind of kinds.ts). The fetch key (§10) is the address as the config wrote it minus its
// `//subdir`, so plugins reading different subdirectories of one repository and ref share one fetch.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginAddress, SourceConfig } from "../config/index.js";

export type FetchPlan =
  | { readonly kind: "local"; readonly key: string; readonly abs: string }
  | {
      readonly kind: "fetched";
      readonly key: string;
      readonly source: SourceConfig;
      /** The path the address names inside the source, `""` for the source itself. */
      readonly path: string;
      readonly ref?: string;
    }
  | { readonly kind: "failed"; readonly key: string; readonly error: string };

/** 40 hex digits: a commit, which is never re-checked against the remote. */
export const COMMIT = /^[0-9a-f]{40}$/;

/** `gl://team/notes//ops?ref=main` => `gl://team/notes?ref=main`; a local address is its own key. */
function formatFetchKey(address: PluginAddress): string {
  if (address.kind === "local") return address.written;
  return `${address.source}://${address.path}${address.ref === undefined ? "" : `?ref=${address.ref}`}`;
}

export function planFetch(sources: readonly SourceConfig[], address: PluginAddress): FetchPlan {
  const key = formatFetchKey(address);
  if (address.kind === "local") return { kind: "local", key, abs: address.abs };
  const source = sources.find((candidate) => candidate.name === address.source);
  // The config refuses undeclared sources; a source whose URL was refused never reaches here either.
  if (source === undefined) return { kind: "failed", key, error: `source '${address.source}' is not declared` };
  if (source.kind === "file") {
    return { kind: "local", key, abs: path.join(fileURLToPath(source.url), ...address.path.split("/").filter((s) => s !== "")) };
  }
  const plan = { kind: "fetched", key, source, path: address.path } as const;
  return address.ref === undefined ? plan : { ...plan, ref: address.ref };
}
