// Where a plugin's tree lives on disk. Local folders only for now; git sources fail their fetch plainly.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config, PluginConfig } from "../config/types.js";

export type PluginRoot =
  | { readonly ok: true; readonly fetch: string; readonly root: string; readonly rootAbs: string }
  | { readonly ok: false; readonly fetch: string; readonly root: string; readonly error: string };

/** The fetch key, subdirectory and absolute root of a plugin. Never an absolute path in `error`. */
export function locatePluginRoot(config: Config, plugin: PluginConfig): PluginRoot {
  const address = plugin.address;
  if (address.kind === "local") return { ok: true, fetch: address.written, root: "", rootAbs: address.abs };
  // One fetch per repository and ref, whatever subdirectories its plugins read: `gl://team/notes?ref=main`.
  const fetch = `${address.source}://${address.path}${address.ref === undefined ? "" : `?ref=${address.ref}`}`;
  const source = config.sources.find((candidate) => candidate.name === address.source);
  if (source === undefined || source.kind !== "file") {
    return { ok: false, fetch, root: address.subdir, error: `source '${address.source}' is a git source, which this build does not fetch yet` };
  }
  const base = fileURLToPath(source.url);
  return { ok: true, fetch, root: address.subdir, rootAbs: path.join(base, address.path, address.subdir) };
}
