// Sealing a text under a key: AES-256-GCM with a random 12-byte IV, written as base64url of IV, tag and ciphertext.
// A sealed text opens only under the key that sealed it and only unchanged.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export function seal(key: Uint8Array, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The text sealed in `sealed` under `key`; undefined when another key sealed it or it was changed. */
export function unseal(key: Uint8Array, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.length < 28) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
