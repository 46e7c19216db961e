// The page over plain HTTP on a real socket: security headers, safe rendering of hostile skills, the sign-in
// cookie and its flags, CSRF refusals, downloads, and scopes (out of scope answers exactly like nonexistent).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, type RawResponse } from "../support/http.js";
import { HOSTILE_SKILL_MD, PNG, serveWeb, TOKENS, writeWebShelf, type Served } from "./fixture.js";
import { sha256 } from "../support/digest.js";

const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function setCookies(response: RawResponse): string[] {
  const header = response.headers["set-cookie"];
  return header === undefined ? [] : header;
}

/** The browser's CSRF cookie and the form token of the sign-in page that set it. */
async function formSession(origin: string): Promise<{ cookie: string; csrf: string }> {
  const page = await send(origin, { path: "/signin" });
  const set = setCookies(page).find((line) => line.startsWith("skillshelf_csrf="));
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
  if (set === undefined || csrf === undefined) throw new Error(`no CSRF cookie or field in ${page.status} ${page.text.slice(0, 200)}`);
  return { cookie: set.split(";")[0] as string, csrf };
}

/** The page's markup with the whitespace between tags dropped and runs of spaces made one, for exact matching. */
function squash(text: string): string {
  return text.replace(/>\s+</g, "><").replace(/\s+/g, " ");
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

async function signIn(origin: string, token: string): Promise<string> {
  const { cookie, csrf } = await formSession(origin);
  const response = await send(origin, {
    method: "POST",
    path: "/signin",
    headers: { ...FORM, Cookie: cookie },
    body: form({ csrf, token }),
  });
  const set = setCookies(response).find((line) => line.startsWith("skillshelf_token="));
  if (response.status !== 303 || set === undefined) throw new Error(`sign-in failed: ${response.status}`);
  return `${cookie}; ${set.split(";")[0] as string}`;
}

describe("the page over HTTP, with clients declared and no anonymous access", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveWeb(writeWebShelf().configPath);
  });
  afterAll(async () => {
    await served?.close();
  });

  it("sends a strict Content-Security-Policy and the usual headers on every page", async () => {
    for (const path of ["/", "/signin", "/search?q=x", "/connect", "/libraries/pub"]) {
      const response = await send(served.origin, { path });
      expect(response.headers["content-security-policy"], path).toBe(CSP);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("same-origin");
      expect(response.headers["x-frame-options"]).toBe("DENY");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.text).not.toMatch(/<script|<style| style=/i);
    }
    const css = await send(served.origin, { path: "/assets/style.css" });
    expect([css.status, css.headers["content-type"]]).toEqual([200, "text/css; charset=utf-8"]);
  });

  it("answers a visitor without a token with the sign-in form and nothing of the shelf", async () => {
    for (const path of ["/", "/libraries/pub", "/skills/pub/hostile", "/search?q=quokka", "/connect", "/raw/pub/hostile/SKILL.md"]) {
      const response = await send(served.origin, { path });
      expect([response.status, response.headers["www-authenticate"]], path).toEqual([401, "Bearer"]);
      expect(response.text).toContain('action="/signin"');
      expect(response.text).not.toMatch(/hostile|terraform|drift|secret|vault|zebrafish|pub-kit/);
    }
  });

  it("signs in with a token into a cookie flagged HttpOnly and SameSite=Strict, and out again", async () => {
    const { cookie, csrf } = await formSession(served.origin);
    const response = await send(served.origin, {
      method: "POST",
      path: "/signin",
      headers: { ...FORM, Cookie: cookie },
      body: form({ csrf, token: TOKENS.reader }),
    });
    expect([response.status, response.headers["location"]]).toEqual([303, "/"]);
    expect(setCookies(response)).toEqual([`skillshelf_token=${TOKENS.reader}; Path=/; HttpOnly; SameSite=Strict`]);
    // Behind a proxy that terminated TLS, the cookie is also flagged Secure (and the connect panel names https).
    const behindTls = await formSession(served.origin);
    const secure = await send(served.origin, {
      method: "POST",
      path: "/signin",
      headers: { ...FORM, Cookie: behindTls.cookie, "X-Forwarded-Proto": "https" },
      body: form({ csrf: behindTls.csrf, token: TOKENS.reader }),
    });
    expect(setCookies(secure)).toEqual([`skillshelf_token=${TOKENS.reader}; Path=/; HttpOnly; Secure; SameSite=Strict`]);
    const session = `${cookie}; skillshelf_token=${TOKENS.reader}`;
    const connect = await send(served.origin, { path: "/connect", headers: { Cookie: session, "X-Forwarded-Proto": "https" } });
    expect(connect.text).toContain(`https://${served.origin.slice("http://".length)}/mcp`);
    const home = await send(served.origin, { path: "/", headers: { Cookie: session } });
    expect(home.status).toBe(200);
    expect(squash(home.text)).toContain("Signed in as <strong>reader</strong>");
    const out = await send(served.origin, {
      method: "POST",
      path: "/signout",
      headers: { ...FORM, Cookie: session },
      body: form({ csrf }),
    });
    expect([out.status, setCookies(out)]).toEqual([303, ["skillshelf_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"]]);
  });

  it("refuses a wrong token with the form again, and never echoes it", async () => {
    const { cookie, csrf } = await formSession(served.origin);
    const wrong = `${TOKENS.reader}x`;
    const response = await send(served.origin, {
      method: "POST",
      path: "/signin",
      headers: { ...FORM, Cookie: cookie },
      body: form({ csrf, token: wrong }),
    });
    expect(response.status).toBe(401);
    expect(response.text).toContain("That token is not valid.");
    expect(response.text).not.toContain(wrong);
    expect(served.refusals.splice(0)).toEqual(["401 POST /signin: sign-in with a token no client holds"]);
    expect(setCookies(response).some((line) => line.startsWith("skillshelf_token="))).toBe(false);
  });

  it("refuses forms without the CSRF token of this browser, or from another origin", async () => {
    const { cookie, csrf } = await formSession(served.origin);
    const other = await formSession(served.origin);
    const attempts: [string, Record<string, string>, string][] = [
      ["no token", { ...FORM, Cookie: cookie }, form({ token: TOKENS.ops })],
      ["no cookie", FORM, form({ csrf, token: TOKENS.ops })],
      ["another browser's token", { ...FORM, Cookie: cookie }, form({ csrf: other.csrf, token: TOKENS.ops })],
      ["a forged token", { ...FORM, Cookie: cookie }, form({ csrf: `${csrf.slice(0, -2)}AA`, token: TOKENS.ops })],
    ];
    for (const [name, headers, body] of attempts) {
      const response = await send(served.origin, { method: "POST", path: "/signin", headers, body });
      expect(response.status, name).toBe(403);
      expect(response.text).toContain("This form did not come from this page or has expired.");
      expect(
        setCookies(response).some((line) => line.startsWith("skillshelf_token=")),
        name,
      ).toBe(false);
    }
    expect(served.refusals.splice(0)).toEqual(Array(4).fill("403 POST /signin: the page's form carries no valid CSRF token"));
    const crossSite = await send(served.origin, {
      method: "POST",
      path: "/signin",
      headers: { ...FORM, Cookie: cookie, Origin: "https://evil.example" },
      body: form({ csrf, token: TOKENS.ops }),
    });
    expect(crossSite.status).toBe(403);
    const signOut = await send(served.origin, {
      method: "POST",
      path: "/signout",
      headers: { ...FORM, Cookie: `${cookie}; skillshelf_token=${TOKENS.ops}` },
      body: "",
    });
    expect([signOut.status, setCookies(signOut).some((line) => line.startsWith("skillshelf_token="))]).toEqual([403, false]);
  });

  it("renders a hostile SKILL.md inert: no script, no event handler, no javascript: link, no frame, no form", async () => {
    const session = await signIn(served.origin, TOKENS.reader);
    const response = await send(served.origin, { path: "/skills/pub/hostile", headers: { Cookie: session } });
    expect(response.status).toBe(200);
    const article = squash(/<article class="skill"[^>]*>([\s\S]*?)<\/article>/.exec(response.text)?.[1] ?? "");
    expect(article).toContain("<h2>Hostile</h2><p>Before the script.</p><p>After the script.</p><p>Styled paragraph.</p>");
    // The form's button text stays as text; the form and its field do not.
    expect(article).toContain("</p> Send<p>");
    expect(response.text).not.toMatch(
      /<script|<iframe|<svg|<img|<form action="https|<input name|onerror|onload|onclick|style=|javascript:|pwned/i,
    );
    // Links: the javascript ones lose their target, relative ones point at the skill's files (never above the
    // library), absolute ones are kept and marked.
    expect(article).toContain('<a rel="noopener noreferrer nofollow">a javascript link</a>');
    expect(article).toContain('<a rel="noopener noreferrer nofollow">mixed case</a>');
    expect(article).toContain("<a>entity tab</a>");
    expect(article).toContain('<a href="/files/pub/hostile/notes/page.html">the notes</a> and <a>outside</a> and');
    expect(article).toContain('<a href="https://example.org/docs" rel="noopener noreferrer nofollow">web</a>');
  });

  it("lists the skill's files from its manifest with digests, and its prompts", async () => {
    const session = await signIn(served.origin, TOKENS.reader);
    const response = await send(served.origin, { path: "/skills/pub/hostile", headers: { Cookie: session } });
    const paths = [...squash(response.text).matchAll(/<th scope="row"><a href="\/files\/pub\/hostile\/([^"]+)">/g)].map((m) => m[1]);
    expect(paths).toEqual(["SKILL.md", "assets/logo.png", "notes/page.html"]);
    const rows = [
      ...squash(response.text).matchAll(
        /<th scope="row"><a href="[^"]+">([^<]+)<\/a><\/th><td>(\d+)<\/td><td><code class="digest">(sha256:[0-9a-f]{64})<\/code>/g,
      ),
    ];
    expect(rows.map((m) => [m[1], Number(m[2])])).toEqual([
      ["SKILL.md", Buffer.byteLength(HOSTILE_SKILL_MD)],
      ["assets/logo.png", PNG.length],
      ["notes/page.html", 61],
    ]);
    expect(rows[1]?.[3]).toBe(sha256(PNG));
    expect(squash(response.text)).toMatch(
      /<h2>Prompts<\/h2><ul class="rows"><li><code>pub_triage<\/code ?><span class="count">\(service\)<\/span>/,
    );
  });

  it("downloads a binary with its type and an attachment disposition, and shows text files as text", async () => {
    const session = await signIn(served.origin, TOKENS.reader);
    const png = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      void fetch(`${served.origin}/raw/pub/hostile/assets/logo.png`, { headers: { Cookie: session } })
        .then(async (r) => resolve({ status: r.status, headers: Object.fromEntries(r.headers), body: Buffer.from(await r.arrayBuffer()) }))
        .catch(reject);
    });
    expect(png.status).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers["content-disposition"]).toBe("attachment; filename=logo.png");
    expect(png.headers["content-security-policy"]).toBe(`${CSP}; sandbox`);
    expect(png.body.equals(PNG)).toBe(true);
    const html = await send(served.origin, { path: "/raw/pub/hostile/notes/page.html", headers: { Cookie: session } });
    expect([html.headers["content-type"], html.headers["content-disposition"]]).toEqual([
      "text/html; charset=utf-8",
      "attachment; filename=page.html",
    ]);
    const view = await send(served.origin, { path: "/files/pub/hostile/notes/page.html", headers: { Cookie: session } });
    expect(view.status).toBe(200);
    expect(view.text).toContain(
      "<pre><code>&lt;!doctype html&gt;&lt;script&gt;window.pwned = 8&lt;/script&gt;&lt;p&gt;notes&lt;/p&gt;\n</code></pre>",
    );
    const binary = await send(served.origin, { path: "/files/pub/hostile/assets/logo.png", headers: { Cookie: session } });
    expect(squash(binary.text)).toContain(`A binary file: image/png, ${PNG.length} bytes.`);
  });

  it("answers out of scope exactly as what does not exist: not shown, counted or hinted", async () => {
    const session = await signIn(served.origin, TOKENS.reader);
    const get = (path: string): Promise<RawResponse> => send(served.origin, { path, headers: { Cookie: session } });
    const home = await get("/");
    expect(squash(home.text)).toContain("1 library, 3 skills visible to <strong>reader</strong>.");
    expect(home.text).not.toMatch(/secret|vault|zebrafish/);
    const pairs: [string, string][] = [
      ["/libraries/secret", "/libraries/nope"],
      ["/skills/secret/vault-rotation", "/skills/pub/vault-rotation"],
      ["/files/secret/vault-rotation/SKILL.md", "/files/nope/vault-rotation/SKILL.md"],
      ["/raw/secret/vault-rotation/SKILL.md", "/raw/pub/nope/SKILL.md"],
      ["/connect?library=secret", "/connect?library=nope"],
    ];
    for (const [hidden, absent] of pairs) {
      const [a, b] = [await get(hidden), await get(absent)];
      expect([a.status, b.status], hidden).toEqual([404, 404]);
      expect(a.text.replace(/value="[^"]+"/g, "")).toBe(b.text.replace(/value="[^"]+"/g, ""));
    }
    const search = await get("/search?q=zebrafish");
    expect(squash(search.text)).toContain("No skill matches");
    const [scoped, absent] = [await get("/search?q=vault&library=secret"), await get("/search?q=vault&library=nope")];
    expect([scoped.status, absent.status]).toEqual([400, 400]);
    expect(squash(scoped.text)).toContain("No library named secret that you can see holds skills.");
    expect(scoped.text.replace(/secret/g, "nope").replace(/value="[^"]+"/g, "")).toBe(absent.text.replace(/value="[^"]+"/g, ""));
    expect((await get("/status")).status).toBe(403);
  });

  it("searches with the same index as search_skills and links each result to its skill page", async () => {
    const session = await signIn(served.origin, TOKENS.reader);
    const response = await send(served.origin, { path: "/search?q=terraform%20drfit", headers: { Cookie: session } });
    expect(response.status).toBe(200);
    const first = /<ol class="rows"><li><a href="([^"]+)">([^<]+)<\/a>/.exec(squash(response.text));
    expect([first?.[1], first?.[2]]).toEqual(["/skills/pub/guides/terraform-drift", "terraform-drift"]);
    // Results come best first; the ranking's raw score means nothing to a reader and is not shown.
    expect(
      /<li><a href="\/skills\/pub\/guides\/terraform-drift">terraform-drift<\/a><span class="count">([^<]*)<\/span>/.exec(
        squash(response.text),
      )?.[1],
    ).toBe("pub/guides/terraform-drift");
    const tooLong = await send(served.origin, { path: `/search?q=${"a".repeat(201)}`, headers: { Cookie: session } });
    expect([tooLong.status, squash(tooLong.text).includes("The search is 201 characters long; the most is 200.")]).toEqual([400, true]);
  });

  it("shows an admin the health view with the skipped skill", async () => {
    const session = await signIn(served.origin, TOKENS.ops);
    const response = await send(served.origin, { path: "/status", headers: { Cookie: session } });
    expect(response.status).toBe(200);
    expect(squash(response.text)).toContain("<td>skipped</td><td>pub-kit</td><td><code>skills/Bad_Name</code></td>");
    expect(response.text).toContain('<a href="/status">Health</a>');
    expect(response.text).toContain("<code>./secret-kit</code>");
  });

  it("gives a bad token cookie nothing and clears it", async () => {
    const { cookie } = await formSession(served.origin);
    const response = await send(served.origin, { path: "/", headers: { Cookie: `${cookie}; skillshelf_token=stale-token` } });
    expect(response.status).toBe(401);
    expect(setCookies(response)).toContain("skillshelf_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict");
  });
});

describe("the page with anonymous access under a ceiling", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveWeb(writeWebShelf().configPath, { anonymous: { library: "pub" } });
  });
  afterAll(async () => {
    await served?.close();
  });

  it("shows a visitor without a token what anonymous may see, and the connect entries without a token", async () => {
    const home = await send(served.origin, { path: "/" });
    expect(home.status).toBe(200);
    expect(home.text).toContain('<a href="/libraries/pub">pub</a>');
    expect(home.text).not.toContain("secret");
    expect(home.text).toContain('<a href="/signin">Sign in</a>');
    const connect = await send(served.origin, { path: "/connect?library=pub" });
    expect(connect.text).toContain(`claude mcp add --transport http --scope user skills &#39;${served.origin}/mcp?library=pub&#39;`);
    expect(connect.text).not.toContain("Authorization");
  });

  it.each(["/skills/pub/%E0%A4%A", "/libraries/%zz", "/files/pub/%", "/raw/pub/a%2"])(
    "answers %s, whose %% escape does not decode, with a page 400, not a JSON-RPC error",
    async (route) => {
      const before = served.refusals.length;
      const response = await send(served.origin, { path: route });
      expect(response.status).toBe(400);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["content-security-policy"]).toBe(CSP);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(squash(response.text)).toContain(
        '<h1>Bad request</h1><p>This address has a malformed % escape. <a href="/">Start from the libraries</a> or search.</p>',
      );
      expect(response.text).not.toContain("jsonrpc");
      expect(served.refusals.slice(before)).toEqual([`400 GET ${route}: the page's address has a malformed % escape`]);
    },
  );

  it("shows a signed-in client its own ceiling, and the entries that send its token", async () => {
    const session = await signIn(served.origin, TOKENS.secretOnly);
    const home = await send(served.origin, { path: "/", headers: { Cookie: session } });
    expect(home.text).toContain('<a href="/libraries/secret">secret</a>');
    expect(home.text).not.toContain('href="/libraries/pub"');
    const connect = await send(served.origin, { path: "/connect", headers: { Cookie: session } });
    expect(squash(connect.text)).toContain("whose ceiling is library secret");
    expect(connect.text).toContain("--header &quot;Authorization: Bearer $SKILLSHELF_TOKEN&quot;");
    expect(connect.text).not.toContain(TOKENS.secretOnly);
  });
});
