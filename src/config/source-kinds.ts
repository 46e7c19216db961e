// The kinds of source a config may declare: the URL schemes each is written with and the address rules it keeps.
// The config's URL check and the address grammar read them from this one registry; `sources/` registers each
// fetched kind here together with its fetcher (`registerSourceKind`), so a new kind is known everywhere at once.

/** What the config and the address grammar know of one kind of source. */
export interface SourceKindRules {
  /** The kind's name in the typed config (`SourceConfig.kind`), e.g. `git`. */
  readonly kind: string;
  /** As messages name it: `git`, `WebDAV`. */
  readonly word: string;
  /** The URL schemes a source of this kind is written with, e.g. `git+https`. */
  readonly schemes: readonly string[];
  /** The schemes whose URL is an absolute path (`file:///srv/skills`) rather than a host. */
  readonly pathSchemes?: readonly string[];
  /** Whether an address through this kind may pin `?ref=`. */
  readonly refs: boolean;
  /** Set when an address must name something inside the source, e.g. a repository: `<owner>/<repo>`. */
  readonly names?: { readonly what: string; readonly example: string };
}

export const GIT_RULES: SourceKindRules = {
  kind: "git",
  word: "git",
  schemes: ["git+https", "git+http", "git+file"],
  pathSchemes: ["git+file"],
  refs: true,
  names: { what: "a repository", example: "<owner>/<repo>" },
};

export const FILE_RULES: SourceKindRules = { kind: "file", word: "file", schemes: ["file"], pathSchemes: ["file"], refs: false };

export const WEBDAV_RULES: SourceKindRules = { kind: "webdav", word: "WebDAV", schemes: ["webdav+https", "webdav+http"], refs: false };

export class SourceKindRegistry {
  private readonly kinds = new Map<string, SourceKindRules>();

  constructor(builtIn: readonly SourceKindRules[]) {
    for (const rules of builtIn) this.register(rules);
  }

  /** Add a kind; answers the function that removes it again. A kind or scheme taken twice is a programming error. */
  register(rules: SourceKindRules): () => void {
    if (this.kinds.has(rules.kind)) throw new Error(`source kind '${rules.kind}' is registered twice`);
    const taken = rules.schemes.find((scheme) => this.ofScheme(scheme) !== undefined);
    if (taken !== undefined) throw new Error(`the URL scheme '${taken}' of source kind '${rules.kind}' is taken`);
    this.kinds.set(rules.kind, rules);
    return () => {
      if (this.kinds.get(rules.kind) === rules) this.kinds.delete(rules.kind);
    };
  }

  get(kind: string): SourceKindRules | undefined {
    return this.kinds.get(kind);
  }

  ofScheme(scheme: string): SourceKindRules | undefined {
    return [...this.kinds.values()].find((rules) => rules.schemes.includes(scheme));
  }

  /** Every registered kind, in registration order. */
  all(): SourceKindRules[] {
    return [...this.kinds.values()];
  }
}

/** The registry the config and the address grammar use. */
export const SOURCE_KINDS = new SourceKindRegistry([GIT_RULES, FILE_RULES, WEBDAV_RULES]);

/** `a, b or c`. */
export function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}
