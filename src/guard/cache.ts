// Findings by content: the same bytes under the same kind of name always give the same findings, so a file whose
// digest was checked before (in this harvest, an earlier one, or another plugin) is not checked again.
import { BoundedMap } from "../memo/index.js";
import { checkFile, checkFileText } from "./check.js";
import type { FileFinding } from "./types.js";

const NONE: readonly FileFinding[] = Object.freeze([]);

/** What of a file's name the findings depend on: its extension (Markdown or script, and secretlint's `ext`). */
function kindOf(path: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  return dot > slash ? path.slice(dot).toLowerCase() : "";
}

/** Findings kept by content digest and file extension, the oldest dropped past `capacity` entries. */
export class FindingCache {
  private readonly entries: BoundedMap<string, readonly FileFinding[]>;
  /** How many files were checked (not answered from the cache): what a test of an unchanged rescan counts. */
  checks = 0;

  constructor(capacity = 100_000) {
    this.entries = new BoundedMap(capacity);
  }

  /** The findings on a file's bytes, checked only when these bytes under this kind of name were not seen. */
  async file(digest: string, path: string, bytes: Uint8Array, text: boolean): Promise<readonly FileFinding[]> {
    const key = `${digest}\0${kindOf(path)}\0${text ? 1 : 0}`;
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    this.checks++;
    // checkFile decodes the bytes before its first await: the caller's buffer may be reused after this call.
    return this.keep(key, await checkFile(path, bytes, text));
  }

  /** The findings on a text (a prompt) whose bytes have `digest`. */
  async text(digest: string, path: string, text: string): Promise<readonly FileFinding[]> {
    const key = `${digest}\0${kindOf(path)}\0t`;
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    this.checks++;
    return this.keep(key, await checkFileText(path, text));
  }

  private keep(key: string, findings: readonly FileFinding[]): readonly FileFinding[] {
    const kept = findings.length === 0 ? NONE : findings;
    this.entries.set(key, kept);
    return kept;
  }
}
