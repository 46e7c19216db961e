// Checking one file: every rule over its bytes, the findings in line order. Deterministic: no network, no model,
// no clock; the same bytes at the same path always give the same findings.
import { checkBinary } from "./binary.js";
import { checkText } from "./rules.js";
import { checkSecrets } from "./secrets.js";
import { viewOf } from "./text.js";
import type { FileFinding } from "./types.js";

const DECODER = new TextDecoder("utf-8");

/** The findings on a file's bytes; `path` (its path in the plugin) decides Markdown or script. `text` is whether
 *  the bytes are UTF-8: binary files get the executable check only. */
export async function checkFile(path: string, bytes: Uint8Array, text: boolean): Promise<FileFinding[]> {
  const findings = checkBinary(bytes.subarray(0, 4096));
  if (text) findings.push(...(await checkFileText(path, DECODER.decode(bytes))));
  return sortFindings(findings);
}

/** The findings on text (a prompt, or a file already decoded). */
export async function checkFileText(path: string, text: string): Promise<FileFinding[]> {
  const findings = checkText(viewOf(text, path));
  findings.push(...(await checkSecrets(text, path)));
  return sortFindings(findings);
}

export function sortFindings<T extends FileFinding>(findings: T[]): T[] {
  return findings.sort((a, b) => a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
}
