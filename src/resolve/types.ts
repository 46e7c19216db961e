// What the resolver works with and answers: a scope compiled against one shelf, and an answer as a value.
import type { DiskFile } from "../harvest/index.js";
import type { ServedFile } from "../shelf/index.js";

/** The part of the shelf one request may see; compiled against a shelf. `null` means "no restriction". */
export interface Scope {
  readonly library: string | null;
  /** Plugin ids admitted; `null` admits every plugin. */
  readonly plugins: ReadonlySet<string> | null;
  /** Under a union ceiling (`anyOf`), the plugins admitted in each visible library: a plugin served by two libraries
   *  may be granted in one only. Absent: `library` and `plugins` say it all. */
  readonly byLibrary?: ReadonlyMap<string, ReadonlySet<string>>;
  /** A stable key for caches (two equal scopes have equal keys). */
  readonly key: string;
}

/** One row of `resources/list`. */
export interface ListingRow {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly mimeType: string;
}

export type Answer =
  | {
      readonly kind: "file";
      readonly uri: string;
      readonly mimeType: string;
      /** Metadata of the served bytes. */
      readonly file: ServedFile;
    }
  | {
      /** A plugin-root fallback read: bytes, size and type are only known once read from disk. */
      readonly kind: "fallback";
      readonly uri: string;
      readonly mimeType: string;
      readonly disk: DiskFile;
    }
  | {
      readonly kind: "document";
      readonly uri: string;
      readonly mimeType: string;
      readonly text: string;
    }
  | {
      readonly kind: "notFound";
      readonly uri: string;
      /** The full message: `Not found: <uri>. …` */
      readonly message: string;
    };

/** What a read returns: text or a base64 blob with its media type, or a not-found message. */
export type ReadOutcome =
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly blob: string }
  | { readonly ok: false; readonly uri: string; readonly message: string; readonly stale?: true };
