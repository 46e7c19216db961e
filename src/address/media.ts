import mime from "mime-types";

// Types mime-db lacks or gets wrong for what skills ship; an unknown or missing extension is Markdown (§2.5).
// Source code gets the `text/x-<language>` type editors and code hosts give it, so a client shows it as text.
const OVERRIDES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  py: "text/x-python",
  sh: "application/x-sh",
  ts: "text/x-typescript",
  tsx: "text/x-typescript",
  cs: "text/x-csharp",
  csx: "text/x-csharp",
  // MSBuild project files are XML.
  csproj: "text/xml",
  fsproj: "text/xml",
  vbproj: "text/xml",
  props: "text/xml",
  targets: "text/xml",
  sln: "text/plain",
  ps1: "text/x-powershell",
  psm1: "text/x-powershell",
  psd1: "text/x-powershell",
  bicep: "text/x-bicep",
  tf: "text/x-terraform",
  tfvars: "text/x-terraform",
  hcl: "text/x-hcl",
  go: "text/x-go",
  // mime-db maps `.rs` to application/rls-services+xml; in a skill it is Rust.
  rs: "text/x-rust",
  rb: "text/x-ruby",
  kt: "text/x-kotlin",
  kts: "text/x-kotlin",
  swift: "text/x-swift",
  lua: "text/x-lua",
  sql: "text/x-sql",
  graphql: "text/x-graphql",
  gql: "text/x-graphql",
  toml: "text/x-toml",
  ini: "text/x-ini",
  scala: "text/x-scala",
  r: "text/x-r",
  fs: "text/x-fsharp",
  fsx: "text/x-fsharp",
  vb: "text/x-vb",
  groovy: "text/x-groovy",
  gradle: "text/x-groovy",
  proto: "text/x-protobuf",
  hpp: "text/x-c",
  // mime-db maps `.bat` to an executable download type; a batch file is text.
  bat: "text/x-bat",
  cmd: "text/x-bat",
  vue: "text/x-vue",
  svelte: "text/x-svelte",
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
