// Who a use is recorded as: a static client by name, a signed-in user by the configured claim (never the subject
// unless the claim names it), anonymous callers as `anonymous`.
import { describe, expect, it } from "vitest";
import { UsageTap } from "../../src/http/usage.js";
import { UsageStore } from "../../src/store/index.js";
import type { Identity } from "../../src/oauth/index.js";

const store = new UsageStore({
  backend: "embedded",
  open: () => Promise.reject(new Error("not opened in this test")),
  now: () => new Date(0),
  flushMs: 1000,
  buffer: 10,
  retentionMs: 86_400_000,
});

function tap(claim: string): UsageTap {
  return new UsageTap({ store, shelf: () => undefined as never, claim, now: () => new Date(0) });
}

const user = (claims: Record<string, unknown>): Identity => ({
  name: "alice-subject",
  scope: { anyOf: [] },
  admin: false,
  signedIn: { subject: "alice-subject", expiresAt: 0 },
  claims,
});

describe("the client a use is recorded as", () => {
  it("names a static client, anonymous callers, and a signed-in user by the claim", () => {
    const groups = tap("groups");
    expect(groups.clientOf(null)).toBe("anonymous");
    expect(groups.clientOf({ name: "ci", scope: {}, admin: false })).toBe("ci");
    expect(groups.clientOf(user({ sub: "alice-subject", groups: ["sre", "platform"] }))).toBe("platform,sre");
    expect(groups.clientOf(user({ sub: "alice-subject" }))).toBe("(no groups)");
    expect(tap("realm_access.team").clientOf(user({ realm_access: { team: "payments" } }))).toBe("payments");
    expect(tap("sub").clientOf(user({ sub: "alice-subject", groups: ["sre"] }))).toBe("alice-subject");
    expect(groups.clientOf(user({ groups: ["x".repeat(150), "y".repeat(150)] }))).toBe(`${"x".repeat(150)},${"y".repeat(49)}`);
  });
});
