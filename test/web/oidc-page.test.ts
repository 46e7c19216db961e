// The page signs people in with a real OpenID provider (oidc-provider on loopback): the authorization code flow
// with PKCE, state and nonce, started at /signin/oidc and finished at its callback, a browser (fetch with a cookie
// jar) posting the provider's login and consent pages. The session then sees exactly what the same user's token
// sees on /mcp — the ceiling the groups grant — and signing out ends it.
import http from "node:http";
import makeFetchCookie from "fetch-cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, listSkillUris } from "../scopes/harness.js";
import { PAGE_CLIENT, type OpenIdProvider } from "../support/oidc.js";
import { TOKENS } from "./fixture.js";
import { startOidcPage, type OidcPage } from "./oidc-fixture.js";

let served: OidcPage;
let provider: OpenIdProvider;
let origin: string;
let resource: string;
let refusals: string[];

beforeAll(async () => {
  served = await startOidcPage();
  ({ provider, origin, resource, refusals } = served);
});

afterAll(async () => {
  await served.close();
});

const CALLBACK = (): string => `${origin}/signin/oidc/callback`;
const named = (lines: readonly string[], name: string): string[] => lines.filter((line) => line.startsWith(`${name}=`));
const ID = "[A-Za-z0-9_-]{43}";
/** A sign-in under way, sealed: 12 bytes of IV, 16 of tag, then the encrypted state, nonce, verifier and expiry. */
const SEALED = "[A-Za-z0-9_-]{200,400}";

interface SignedIn {
  readonly browser: typeof fetch;
  readonly start: Response;
  readonly authorization: URL;
  readonly back: Response;
}

/** A browser sent through the whole flow: the page's link, the provider's login and consent, the callback. */
async function signIn(user: string, callbackOf: (url: URL) => URL = (url) => url): Promise<SignedIn> {
  const browser = makeFetchCookie(fetch);
  const start = await browser(`${origin}/signin/oidc`, { redirect: "manual" });
  await start.body?.cancel();
  const authorization = new URL(start.headers.get("location") ?? "");
  const callback = await provider.authorize(authorization, user, { browser, callback: CALLBACK() });
  const back = await browser(callbackOf(callback).href, { redirect: "manual" });
  return { browser, start, authorization, back };
}

async function page(browser: typeof fetch, path: string): Promise<{ status: number; text: string }> {
  const response = await browser(`${origin}${path}`, { redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

describe("signing in with the provider", () => {
  it("offers the provider beside the token form", async () => {
    const response = await fetch(`${origin}/signin`);
    const text = await response.text();
    const host = new URL(provider.issuer).host;
    expect(response.status).toBe(200);
    expect(text).toContain(`<a class="button" href="/signin/oidc">Sign in with ${host}</a>`);
    expect(text).toContain('<form class="signin" method="post" action="/signin">');
  });

  it("starts the code flow with PKCE (S256), state, nonce and this resource, and keeps them on the server", async () => {
    const start = await fetch(`${origin}/signin/oidc`, { redirect: "manual" });
    expect(start.status).toBe(303);
    const url = new URL(start.headers.get("location") ?? "");
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/auth`);
    const params = Object.fromEntries(url.searchParams);
    expect(Object.keys(params).sort()).toEqual([
      "client_id",
      "code_challenge",
      "code_challenge_method",
      "nonce",
      "redirect_uri",
      "resource",
      "response_type",
      "scope",
      "state",
    ]);
    expect(params).toMatchObject({
      client_id: PAGE_CLIENT.id,
      code_challenge_method: "S256",
      redirect_uri: CALLBACK(),
      resource,
      response_type: "code",
      scope: "openid skills",
    });
    expect(params["code_challenge"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params["state"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params["nonce"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a sealed value reaches the browser, for the callback's path only, sent on the provider's redirect back
    // (Lax): none of the state, nonce or verifier can be read from it.
    expect(named(start.headers.getSetCookie(), "skillshelf_signin")).toEqual([
      expect.stringMatching(new RegExp(`^skillshelf_signin=${SEALED}; Max-Age=600; Path=/signin/oidc; HttpOnly; SameSite=Lax$`)),
    ]);
    const sealed = /^skillshelf_signin=([^;]+)/.exec(named(start.headers.getSetCookie(), "skillshelf_signin")[0] ?? "")?.[1] ?? "";
    const opened = Buffer.from(sealed, "base64url").toString("latin1");
    for (const value of Object.values(params)) expect(opened.includes(value)).toBe(false);
  });

  it("signs alice in: a session cookie (HttpOnly, SameSite=Lax) holding no token, and exactly the libraries her groups grant", async () => {
    const { browser, back } = await signIn("alice");
    expect([back.status, back.headers.get("location")]).toEqual([303, "/"]);
    const cookies = back.headers.getSetCookie();
    expect(named(cookies, "skillshelf_session")).toEqual([
      expect.stringMatching(new RegExp(`^skillshelf_session=${ID}; Max-Age=(59\\d|600); Path=/; HttpOnly; SameSite=Lax$`)),
    ]);
    expect(named(cookies, "skillshelf_signin")).toEqual(["skillshelf_signin=; Max-Age=0; Path=/signin/oidc; HttpOnly; SameSite=Lax"]);
    // No cookie of the page carries anything shaped like a JWT.
    for (const line of cookies) expect(line).not.toMatch(/=[\w-]+\.[\w-]+\.[\w-]+/);

    const home = await page(browser, "/");
    expect(home.status).toBe(200);
    expect(home.text).toContain("Signed in as <strong>alice</strong>");
    expect(home.text).toContain('<a href="/libraries/pub">pub</a>');
    expect(home.text).not.toContain("/libraries/secret");
    expect(home.text).not.toContain("Kept for the few");
    expect((await page(browser, "/libraries/secret")).status).toBe(404);
    expect((await page(browser, "/skills/pub/guides/terraform-drift")).status).toBe(200);
    expect(await page(browser, "/search?q=quokka")).toMatchObject({ status: 200, text: expect.stringContaining("No skill matches") });
    expect((await page(browser, "/status")).status).toBe(403);
    expect(home.text).not.toContain('href="/status"');
  });

  it("gives the session exactly the ceiling the same user's bearer token gets", async () => {
    const token = await provider.signIn("bob", resource);
    const bearer = await fetch(`${origin}/`, { headers: { authorization: `Bearer ${token}` } });
    const bearerText = await bearer.text();
    const { browser } = await signIn("bob");
    const home = await page(browser, "/");
    const libraries = (text: string): string[] => [...text.matchAll(/<a href="\/libraries\/([^"/]+)">/g)].map((m) => m[1] as string);
    expect(libraries(home.text)).toEqual(["secret"]);
    expect(libraries(bearerText)).toEqual(["secret"]);
    expect((await page(browser, "/libraries/pub")).status).toBe(404);
    expect((await page(browser, "/skills/secret/vault-rotation")).status).toBe(200);
    // And /mcp, for the same user's token: the same one skill.
    const mcp = await connectHttp(resource, { authorization: `Bearer ${token}` });
    try {
      expect(await listSkillUris(mcp.client)).toEqual(["skill://secret/vault-rotation/SKILL.md"]);
    } finally {
      await mcp.close();
    }
    const library = await page(browser, "/libraries/secret");
    expect([...library.text.matchAll(/<a href="\/skills\/([^"]+)">/g)].map((m) => m[1])).toEqual(["secret/vault-rotation"]);
  });

  it("tells a signed-in user's client to sign in by itself: the connect panel's entries carry no token", async () => {
    const { browser } = await signIn("alice");
    const connect = await page(browser, "/connect");
    expect(connect.status).toBe(200);
    const text = connect.text.replace(/\s+/g, " ");
    expect(text).toContain(
      "You are signed in as <strong>alice</strong>, whose ceiling is library pub. The entries send no token: your client meets this server's sign-in challenge",
    );
    expect(text).not.toContain("SKILLSHELF_TOKEN");
    expect(text).not.toContain("Authorization");
  });

  it("opens the health view to a user the admin rule matches", async () => {
    const { browser } = await signIn("root");
    const home = await page(browser, "/");
    expect(home.text).toContain('href="/status"');
    expect((await page(browser, "/status")).status).toBe(200);
    expect(home.text).toContain('<a href="/libraries/secret">secret</a>');
  });

  it("signs out: the session is dropped on the server, the cookie cleared", async () => {
    const { browser, back } = await signIn("alice");
    const session = /^skillshelf_session=([^;]+)/.exec(named(back.headers.getSetCookie(), "skillshelf_session")[0] ?? "")?.[1] ?? "";
    const home = await page(browser, "/");
    const csrf = /name="csrf" value="([^"]+)"/.exec(home.text)?.[1] ?? "";
    const out = await browser(`${origin}/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf }).toString(),
    });
    expect(out.status).toBe(303);
    expect(named(out.headers.getSetCookie(), "skillshelf_session")).toEqual([
      "skillshelf_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax",
    ]);
    // The old id, replayed by hand, is no session any more.
    const replay = await fetch(`${origin}/`, { headers: { cookie: `skillshelf_session=${session}` } });
    const replayText = await replay.text();
    expect(replay.status).toBe(401);
    expect(replayText).not.toContain("Signed in as");
    expect(named(replay.headers.getSetCookie(), "skillshelf_session")).toEqual([
      "skillshelf_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax",
    ]);
  });

  it("refuses a tampered state, once in the log, without a session and without echoing the code", async () => {
    refusals.length = 0;
    let code = "";
    const { back } = await signIn("alice", (url) => {
      code = url.searchParams.get("code") ?? "";
      const tampered = new URL(url);
      tampered.searchParams.set("state", `${url.searchParams.get("state") ?? ""}x`);
      return tampered;
    });
    const text = await back.text();
    expect(back.status).toBe(401);
    expect(text).toContain("The sign-in did not succeed: the sign-in&#39;s state does not match the one this browser started.");
    expect(named(back.headers.getSetCookie(), "skillshelf_session")).toEqual([]);
    expect(refusals).toEqual([
      "401 GET /signin/oidc/callback: sign-in with the provider: the sign-in's state does not match the one this browser started",
    ]);
    expect(code).not.toBe("");
    expect(text).not.toContain(code);
  });

  it("refuses a callback this browser did not start (another browser's code), and one used twice", async () => {
    refusals.length = 0;
    const browser = makeFetchCookie(fetch);
    const start = await browser(`${origin}/signin/oidc`, { redirect: "manual" });
    const callback = await provider.authorize(new URL(start.headers.get("location") ?? ""), "root", { browser, callback: CALLBACK() });
    // The attacker's callback, opened in the victim's browser: no sign-in of this browser is under way.
    const victim = await fetch(callback.href, { redirect: "manual" });
    expect(victim.status).toBe(400);
    expect(await victim.text()).toContain(
      "This sign-in was not started in this browser, was already used, or took longer than 10 minutes.",
    );
    const first = await browser(callback.href, { redirect: "manual" });
    expect(first.status).toBe(303);
    const again = await browser(callback.href, { redirect: "manual" });
    expect(again.status).toBe(400);
    expect(refusals).toEqual([
      "400 GET /signin/oidc/callback: sign-in with the provider: no sign-in of this browser is under way (not started here, used, or expired)",
      "400 GET /signin/oidc/callback: sign-in with the provider: no sign-in of this browser is under way (not started here, used, or expired)",
    ]);
  });

  it("completes a sign-in started before 10,050 sign-ins started by someone else, and a changed or foreign cookie starts none", async () => {
    refusals.length = 0;
    const browser = makeFetchCookie(fetch);
    const start = await browser(`${origin}/signin/oidc`, { redirect: "manual" });
    await start.body?.cancel();
    // One visitor without cookies starts sign-in after sign-in, as fast as the server answers.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const flood = async (count: number): Promise<number> => {
      let redirected = 0;
      await Promise.all(
        Array.from({ length: 16 }, async (_, worker) => {
          for (let i = worker; i < count; i += 16) {
            const status = await new Promise<number>((resolve, reject) => {
              http
                .get(`${origin}/signin/oidc`, { agent }, (res) => {
                  res.resume();
                  res.once("end", () => resolve(res.statusCode ?? 0));
                })
                .once("error", reject);
            });
            if (status === 303) redirected++;
          }
        }),
      );
      return redirected;
    };
    expect(await flood(10_050)).toBe(10_050);
    agent.destroy();
    const callback = await provider.authorize(new URL(start.headers.get("location") ?? ""), "alice", { browser, callback: CALLBACK() });
    const back = await browser(callback.href, { redirect: "manual" });
    expect([back.status, back.headers.get("location")]).toEqual([303, "/"]);
    expect(refusals).toEqual([]);

    // A sealed value changed by one character, or sealed by another server, is no sign-in under way.
    const other = await fetch(`${origin}/signin/oidc`, { redirect: "manual" });
    await other.body?.cancel();
    const sealed = /^skillshelf_signin=([^;]+)/.exec(named(other.headers.getSetCookie(), "skillshelf_signin")[0] ?? "")?.[1] ?? "";
    const flipped = `${sealed.slice(0, 40)}${sealed[40] === "A" ? "B" : "A"}${sealed.slice(41)}`;
    for (const value of [flipped, "x".repeat(43)]) {
      const answer = await fetch(`${CALLBACK()}?code=c&state=s`, { redirect: "manual", headers: { Cookie: `skillshelf_signin=${value}` } });
      expect(answer.status).toBe(400);
    }
  }, 120_000);

  it("refuses a user no rule grants anything, as /mcp does", async () => {
    refusals.length = 0;
    const { back } = await signIn("eve");
    expect(back.status).toBe(403);
    expect(await back.text()).toContain(
      "The sign-in did not succeed: the access token was refused: signed in, but no rule of this server grants this user anything.",
    );
    expect(named(back.headers.getSetCookie(), "skillshelf_session")).toEqual([]);
    expect(refusals).toEqual([
      "403 GET /signin/oidc/callback: sign-in with the provider: the access token was refused: signed in, but no rule of this server grants this user anything",
    ]);
  });

  it("says so when the provider does not grant access, repeating nothing it sent", async () => {
    refusals.length = 0;
    const browser = makeFetchCookie(fetch);
    const start = await browser(`${origin}/signin/oidc`, { redirect: "manual" });
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const denied = new URLSearchParams({ error: "access_denied", error_description: "<b>no</b> code=abc123", state, iss: provider.issuer });
    const back = await browser(`${CALLBACK()}?${denied.toString()}`, { redirect: "manual" });
    const text = await back.text();
    expect(back.status).toBe(401);
    expect(text).toContain("The sign-in did not succeed: the provider did not grant access.");
    expect(text).not.toContain("abc123");
    expect(text).not.toContain("<b>no</b>");
    expect(refusals).toEqual(["401 GET /signin/oidc/callback: sign-in with the provider: the provider did not grant access"]);
  });

  it("answers 503 when the provider goes down between the login and the code's redemption", async () => {
    refusals.length = 0;
    const browser = makeFetchCookie(fetch);
    const start = await browser(`${origin}/signin/oidc`, { redirect: "manual" });
    const callback = await provider.authorize(new URL(start.headers.get("location") ?? ""), "alice", { browser, callback: CALLBACK() });
    await provider.stop();
    try {
      const back = await browser(callback.href, { redirect: "manual" });
      expect(back.status).toBe(503);
      expect(await back.text()).toContain("The sign-in did not succeed: the provider cannot be reached.");
      expect(named(back.headers.getSetCookie(), "skillshelf_session")).toEqual([]);
      expect(refusals).toEqual(["503 GET /signin/oidc/callback: sign-in with the provider: the provider cannot be reached"]);
    } finally {
      await provider.restart();
    }
  });

  it("flags the cookies Secure behind a proxy that says it terminated TLS", async () => {
    const start = await fetch(`${origin}/signin/oidc`, { redirect: "manual", headers: { "x-forwarded-proto": "https" } });
    expect(named(start.headers.getSetCookie(), "skillshelf_signin")).toEqual([
      expect.stringMatching(new RegExp(`^skillshelf_signin=${SEALED}; Max-Age=600; Path=/signin/oidc; HttpOnly; Secure; SameSite=Lax$`)),
    ]);
  });

  it("refuses a bearer token minted for another resource, as /mcp does, once in the log", async () => {
    refusals.length = 0;
    const token = await provider.signIn("root", "https://elsewhere.example/mcp");
    const response = await fetch(`${origin}/`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    expect([response.status, response.headers.get("www-authenticate")]).toEqual([401, 'Bearer error="invalid_token"']);
    expect(text).not.toContain(token);
    expect(refusals).toEqual(["401 GET /: the token was not issued for this resource"]);
  });

  it("keeps static client tokens working beside it", async () => {
    const home = await fetch(`${origin}/`, { headers: { authorization: `Bearer ${TOKENS.reader}` } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Signed in as <strong>reader</strong>");
  });
});

describe("a provider that has never been reached", () => {
  it("answers the sign-in link with 503 and says so once in the log", async () => {
    const down = await startOidcPage();
    try {
      await down.provider.stop();
      const start = await fetch(`${down.origin}/signin/oidc`, { redirect: "manual" });
      expect(start.status).toBe(503);
      expect(await start.text()).toContain("The sign-in provider cannot be reached right now. Try again in a minute.");
      expect(named(start.headers.getSetCookie(), "skillshelf_signin")).toEqual([]);
      expect(down.refusals).toEqual(["503 GET /signin/oidc: sign-in with the provider: the provider cannot be reached"]);
    } finally {
      await down.provider.restart();
      await down.close();
    }
  });
});
