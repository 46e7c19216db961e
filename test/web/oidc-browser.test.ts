// Signing in with the provider in a real browser: the system's headless Chromium (playwright-core) clicks "Sign in
// with …" on the page, fills the provider's own login form, consents, and lands back on the page with the ceiling
// the user's groups grant — then signs out; axe-core finds no serious or critical violation on the page's views.
// The page is served as `localhost` and the provider as `127.0.0.1`, two sites, so the redirect back from the
// provider is a cross-site navigation, as in production.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { seriousViolations } from "./axe.js";
import { startOidcPage, type OidcPage } from "./oidc-fixture.js";

/** Debian's `chromium` package (installed by .ci/run when missing). */
const CHROMIUM = "/usr/bin/chromium";

let served: OidcPage;
let browser: Browser;

beforeAll(async () => {
  served = await startOidcPage("localhost");
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run installs it when missing)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

it("signs bob in through the provider's login page and shows exactly his groups' libraries, then signs out", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  const { origin, provider } = served;
  await page.goto(`${origin}/`);
  expect(await page.locator("h1").textContent()).toBe("Sign in");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: `Sign in with ${new URL(provider.issuer).host}` }).click();

  // The provider's own pages: a login form, then consent.
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill("bob");
  await page.locator('input[name="password"]').fill("any");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.origin === provider.issuer && !url.pathname.startsWith("/auth"));
  await page.locator('button[type="submit"]').click();

  await page.waitForURL(`${origin}/`);
  expect(await page.locator(".viewer strong").textContent()).toBe("bob");
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.locator("ul.rows a").allTextContents()).toEqual(["secret"]);
  expect(await page.content()).not.toContain("/libraries/pub");
  const session = (await context.cookies(origin)).find((cookie) => cookie.name === "skillshelf_session");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
  expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(await page.evaluate(() => document.cookie)).toBe("");
  await page.goto(`${origin}/libraries/pub`);
  expect(await page.locator("h1").textContent()).toBe("Not found");
  await page.goto(`${origin}/status`);
  expect(await page.locator("h1").textContent()).toBe("For admins");

  await page.goto(`${origin}/`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${origin}/`);
  expect(await page.locator("h1").textContent()).toBe("Sign in");
  expect((await context.cookies(origin)).some((cookie) => cookie.name === "skillshelf_session")).toBe(false);
  expect(cspViolations).toEqual([]);
  await context.close();
}, 90_000);
