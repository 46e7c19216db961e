// The digest a served file carries, as the tests spell it out: `sha256:` and the hex SHA-256 of its bytes (a string
// is hashed as UTF-8).
import { createHash } from "node:crypto";

export function sha256(bytes: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}
