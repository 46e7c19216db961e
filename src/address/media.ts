import mime from "mime-types";

// Types mime-db lacks or gets wrong for what skills ship; an unknown or missing extension is Markdown (§2.5).
const OVERRIDES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  py: "text/x-python",
  sh: "application/x-sh",
  ts: "text/x-typescript",
  tsx: "text/x-typescript",
};

export const MARKDOWN = "text/markdown";
export const JSON_TYPE = "application/json";

const OCTET = "application/octet-stream";

/** `references/a.py` => `text/x-python`; `LICENSE` => `text/markdown`. Pure: a table lookup on the extension.
 *  `text` says whether the bytes decode as UTF-8: such a file is never `application/octet-stream`. */
export function mimeTypeFor(path: string, text = true): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  const ext = dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
  const type = OVERRIDES[ext] ?? (ext ? mime.lookup(ext) || null : null);
  if (type === null) return text ? MARKDOWN : OCTET;
  return type === OCTET && text ? MARKDOWN : type;
}
