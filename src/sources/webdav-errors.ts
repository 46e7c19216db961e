// A WebDAV failure in words an operator can act on. The client's own messages name the share's URL; they are read
// only to choose one of these fixed sentences, which name the folder and never a credential.
import { describeErrorCode } from "../address/index.js";
import { type FailureKind, SourceFailure } from "./fetcher.js";

/** A failure of a WebDAV source. */
export function davFailure(kind: FailureKind, message: string): SourceFailure {
  return new SourceFailure("webdav", kind, message);
}

const TLS = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ETIMEDOUT"]);

/** The HTTP status a `webdav` client error carries, if any. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** `folder` is the path inside the share (`""` for its root). */
export function describeDavFailure(error: unknown, folder: string, timeoutMs: number): SourceFailure {
  if (error instanceof SourceFailure) return error;
  const status = statusOf(error);
  if (status === 401) return davFailure("auth", "the credentials were refused");
  if (status === 403) return davFailure("auth", "the account may not read this folder");
  if (status === 404 || status === 409) return davFailure("missing", `the folder /${folder} does not exist`);
  if (status !== undefined) return davFailure("other", `the share answered HTTP ${status}`);
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "AbortError" || name === "TimeoutError") {
    return davFailure("timeout", `the share did not answer within ${formatSeconds(timeoutMs)}`);
  }
  const code = networkCode(error);
  if (code !== undefined && TLS.test(code)) return davFailure("unreachable", `the TLS connection to the share failed (${code})`);
  if (code !== undefined && UNREACHABLE.has(code)) return davFailure("unreachable", `the share could not be reached (${code})`);
  // Writing the export found no room (a full disk, a quota, a read-only file system): said as such.
  const described = describeErrorCode(code === undefined ? error : { code });
  if (code !== undefined && described !== code) return davFailure("other", `the export could not be written (${described})`);
  return davFailure("other", `the WebDAV request failed (${code ?? described})`);
}

/** node-fetch puts the system error's code on the error itself, and sometimes only on its cause. */
function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== null && typeof current === "object" && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z0-9_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
