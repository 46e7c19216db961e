// The page in a real browser: the system's headless Chromium, driven by playwright-core, against the real HTTP
// app on loopback. A person browses libraries to a skill, searches and opens a result, signs in and sees exactly
// their client's ceiling, an admin finds the skipped skill in the health view, a hostile skill runs nothing, and
// axe-core finds no serious or critical accessibility violation on any page.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { seriousViolations } from "./axe.js";
import { serveWeb, TOKENS, writeWebShelf, type Served } from "./fixture.js";

/** Debian's `chromium` package (installed by .ci/run when missing). */
const CHROMIUM = "/usr/bin/chromium";
describe("the page in headless Chromium", () => {
  let served: Served;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    served = await serveWeb(writeWebShelf().configPath, { anonymous: { library: "pub" } });
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run installs it when missing)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const fresh = async (): Promise<Page> => {
    await context?.close();
    context = await browser.newContext();
    page = await context.newPage();
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return page;
  };

  const signIn = async (token: string): Promise<void> => {
    await page.goto(`${served.origin}/signin`);
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${served.origin}/`);
  };

  it("browses from the libraries to a skill, with the stylesheet applied under the policy", async () => {
    await fresh();
    await page.goto(`${served.origin}/`);
    expect(await page.locator("h1").textContent()).toBe("Libraries");
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("system-ui");
    await page.getByRole("link", { name: "pub", exact: true }).click();
    await page.getByRole("link", { name: "guides/" }).click();
    await page.getByRole("link", { name: "terraform-drift" }).click();
    expect(await page.locator("h1").textContent()).toBe("terraform-drift");
    expect(await page.locator("article.skill h2").textContent()).toBe("Drift");
    expect(await page.locator("article.skill code").first().textContent()).toBe("terraform plan -refresh-only");
    const crumbs = await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem").allTextContents();
    expect(crumbs.map((c) => c.trim())).toEqual(["Libraries", "pub", "guides", "terraform-drift"]);
    expect(cspViolations).toEqual([]);
  }, 60_000);

  it("searches from the header and opens the first result", async () => {
    await fresh();
    await page.goto(`${served.origin}/`);
    await page.getByRole("searchbox", { name: "Search skills" }).fill("terraform drfit");
    await page.getByRole("searchbox", { name: "Search skills" }).press("Enter");
    await page.waitForURL(/\/search\?q=terraform\+drfit$/);
    const results = page.locator("ol.rows > li > a");
    expect(await results.first().textContent()).toBe("terraform-drift");
    await results.first().click();
    expect(await page.locator("h1").textContent()).toBe("terraform-drift");
  }, 60_000);

  it("signs in with a token and shows exactly that client's ceiling, then signs out", async () => {
    await fresh();
    await page.goto(`${served.origin}/`);
    expect(await page.locator("ul.rows a").allTextContents()).toEqual(["pub"]);
    await signIn(TOKENS.secretOnly);
    expect(await page.locator(".viewer strong").textContent()).toBe("secret-only");
    expect(await page.locator("ul.rows a").allTextContents()).toEqual(["secret"]);
    expect(await page.content()).not.toContain("/libraries/pub");
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === "skillshelf_token")).toMatchObject({
      value: TOKENS.secretOnly,
      httpOnly: true,
      sameSite: "Strict",
    });
    expect(await page.evaluate(() => document.cookie)).toBe("");
    await page.goto(`${served.origin}/libraries/pub`);
    expect(await page.locator("h1").textContent()).toBe("Not found");
    await page.goto(`${served.origin}/`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${served.origin}/`);
    expect(await page.locator("ul.rows a").allTextContents()).toEqual(["pub"]);
  }, 60_000);

  it("shows an admin the skipped skill in the health view, and keeps it from everyone else", async () => {
    await fresh();
    await page.goto(`${served.origin}/`);
    expect(await page.getByRole("link", { name: "Health" }).count()).toBe(0);
    await signIn(TOKENS.ops);
    await page.getByRole("link", { name: "Health" }).click();
    expect(await page.locator("h1").textContent()).toBe("Health");
    const row = page.locator("tr", { hasText: "skills/Bad_Name" });
    expect((await row.locator("td").allTextContents()).map((c) => c.trim())).toEqual([
      "skipped",
      "pub-kit",
      "skills/Bad_Name",
      'The name "Bad_Name" breaks the naming rule (1-64 characters of a-z, 0-9 and \'-\', no hyphen first or last, no \'--\'): character 1 ("B") is an upper-case letter. The nearest valid name is "bad-name".',
    ]);
  }, 60_000);

  it("fits a 390-pixel phone: digests on one line, tables scroll in their box, the page never sideways", async () => {
    await fresh();
    await page.setViewportSize({ width: 390, height: 844 });
    const fits = async (route: string): Promise<{ route: string; pageWidth: number }> => {
      await page.goto(`${served.origin}${route}`);
      return { route, pageWidth: await page.evaluate(() => document.documentElement.scrollWidth) };
    };
    expect(await fits("/skills/pub/hostile")).toEqual({ route: "/skills/pub/hostile", pageWidth: 390 });
    const digest = page.locator("code.digest").first();
    const lines = await digest.evaluate((node) => node.getClientRects().length);
    expect(lines).toBe(1);
    await signIn(TOKENS.ops);
    expect(await fits("/status")).toEqual({ route: "/status", pageWidth: 390 });
    const summary = (await page.locator("main p").first().textContent())?.trim().replace(/\s+/g, " ");
    expect(summary).toBe("Status warnings · generation 1 · built 1970-01-01T00:00:00.000Z · 4 skills, 1 prompt.");
  }, 60_000);

  it("runs nothing from a hostile skill", async () => {
    await fresh();
    await page.goto(`${served.origin}/skills/pub/hostile`);
    expect(await page.locator("h1").textContent()).toBe("hostile");
    for (const link of ["a javascript link", "mixed case", "entity tab"]) {
      await page.getByText(link).click();
    }
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    expect(page.url()).toBe(`${served.origin}/skills/pub/hostile`);
    expect(await page.locator("article.skill script, article.skill img, article.skill iframe, article.skill svg").count()).toBe(0);
  }, 60_000);

  it("has no serious or critical accessibility violation on any page (axe-core)", async () => {
    await fresh();
    const anonymous = [
      "/",
      "/libraries/pub",
      "/libraries/pub/guides",
      "/skills/pub/hostile",
      "/skills/pub/guides/terraform-drift",
      "/files/pub/hostile/notes/page.html",
      "/search?q=release",
      "/connect",
      "/signin",
      "/libraries/nope",
    ];
    const found: Record<string, string[]> = {};
    for (const route of anonymous) {
      await page.goto(`${served.origin}${route}`);
      found[route] = await seriousViolations(page);
    }
    await signIn(TOKENS.ops);
    await page.goto(`${served.origin}/status`);
    found["/status"] = await seriousViolations(page);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((route) => [route, []])));
  }, 120_000);
});
