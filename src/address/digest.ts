// The one digest format the shelf publishes: `sha256:` + 64 lower-case hex over a file's bytes.
import { createHash, type Hash } from "node:crypto";

const DIGEST_PREFIX = "sha256:";

/** `abc` => `sha256:ba7816bf…`. */
export function digestBytes(bytes: Uint8Array | string): string {
  return formatDigest(createHash("sha256").update(bytes));
}

/** A SHA-256 hash fed piece by piece, finished into the published format. */
export function formatDigest(hash: Hash): string {
  return DIGEST_PREFIX + hash.digest("hex");
}
