// The connect panel: this server's MCP endpoint and each client's entry for it, the skills installer's commands for
// a base that carries the viewer's scope, and the plugin marketplace of what they see.
import { libraryMarketplaceName, SCOPE_MARKETPLACE } from "../../address/index.js";
import type { Ceiling, ScopeSpec } from "../../config/index.js";
import { connectEntries, installEntries, marketplaceEntries } from "../connect.js";
import { html, type Html } from "../html.js";
import { libraryOptions, type PageView } from "./parts.js";

export interface ConnectData {
  /** The MCP endpoint, narrowed to the library asked. */
  readonly url: URL;
  /** The library asked ("": every library), and those the viewer sees anything of. */
  readonly asked: string;
  readonly libraries: readonly string[];
  /** The viewer: absent when anonymous; `withProvider` when signed in with the provider (no token to paste). */
  readonly viewer: { readonly name: string; readonly withProvider: boolean } | null;
  /** What the viewer (or an anonymous caller) may see. */
  readonly ceiling: Ceiling | null;
  /** The page offers to sign in. */
  readonly signIn: boolean;
  /** The viewer's personal install link, when the server issued one. */
  readonly link: { readonly path: string; readonly expires: Date } | undefined;
  /** The plugins the viewer sees (in the library asked). */
  readonly plugins: readonly string[];
}

export function connectView(data: ConnectData): PageView {
  const { url, asked } = data;
  const signedIn = data.viewer !== null;
  // A user signed in with the provider connects by signing in again from the client: no token to paste.
  const withProvider = data.viewer?.withProvider === true;
  const entries = connectEntries(url.href, signedIn && !withProvider).map(
    (entry) =>
      html`<section aria-labelledby="${`c-${entry.client.replace(/\W+/g, "-")}`}">
        <h2 id="${`c-${entry.client.replace(/\W+/g, "-")}`}">${entry.client}</h2>
        <p>In ${entry.where}:</p>
        <pre><code>${entry.text}</code></pre>
      </section>`,
  );
  const options = libraryOptions(data.libraries, asked);
  const ceiling = data.ceiling;
  const body = html`<h1>Connect a client</h1>
    <p>
      This server's MCP endpoint is <code>${url.href}</code>.
      ${
        withProvider
          ? html`You are signed in as <strong>${data.viewer?.name ?? ""}</strong>, whose ceiling is ${describeScope(ceiling)}. The entries
              send no token: your client meets this server's sign-in challenge and opens the browser to sign you in with the same provider,
              and then sees what you see here.`
          : signedIn
            ? html`You are signed in as <strong>${data.viewer?.name ?? ""}</strong>, whose ceiling is ${describeScope(ceiling)}; the entries
                send your token, read from the environment variable <code>SKILLSHELF_TOKEN</code> (VS Code asks for it once).`
            : html`You are not signed in, so the entries send no token and see
              ${describeScope(ceiling)}${data.signIn ? html`; <a href="/signin">sign in</a> for your client's entries` : ""}.`
      }
    </p>
    <form method="get" action="/connect">
      <p>
        <label for="connect-library">Narrow to one library</label>
        <select id="connect-library" name="library">
          <option value="">every library you can see</option>
          ${options}
        </select>
        <button type="submit">Update</button>
      </p>
    </form>
    ${entries} ${installSection(data)} ${pluginSection(data)}`;
  return { title: "Connect a client", crumbs: [{ label: "Libraries", href: "/" }, { label: "Connect" }], body };
}

function describeScope(ceiling: Ceiling | null): string {
  if (ceiling === null) return "the whole shelf";
  if ("anyOf" in ceiling) {
    if (ceiling.anyOf.length === 0) return "nothing";
    return ceiling.anyOf.some((scope) => describeSpec(scope) === "the whole shelf")
      ? "the whole shelf"
      : ceiling.anyOf.map(describeSpec).join("; and ");
  }
  return describeSpec(ceiling);
}

function describeSpec(scope: ScopeSpec): string {
  const parts = [
    ...(scope.library === undefined ? [] : [`library ${scope.library}`]),
    ...(scope.categories === undefined || scope.categories.length === 0 ? [] : [`categories ${scope.categories.join(" or ")}`]),
    ...(scope.tags === undefined || scope.tags.length === 0 ? [] : [`tags ${scope.tags.join(" or ")}`]),
  ];
  return parts.length === 0 ? "the whole shelf" : parts.join(", ");
}

/** The install section: the skills installer's commands for a base that carries the viewer's scope — their
 *  personal link when signed in, the server itself for anonymous visitors — or why there is none. */
function installSection(data: ConnectData): Html {
  const library = data.asked;
  const origin = data.url.origin;
  const narrowing = library === "" ? "" : `/libraries/${encodeURIComponent(library)}`;
  const viewer = data.viewer;
  const link = data.link;
  let base: string | undefined;
  let note: Html;
  if (viewer !== null && link !== undefined) {
    base = `${origin}${link.path}${narrowing}`;
    note = html`This link is yours: it installs what <strong>${viewer.name}</strong> may read, without a token, until
      ${link.expires.toISOString().slice(0, 10)}. Keep it private like a token; an admin can revoke it.`;
  } else if (viewer === null) {
    // (The page is open to a visitor without a token only when anonymous callers may read.)
    base = `${origin}${narrowing}`;
    note = html`Installers send no token: these commands install what anonymous callers may read.`;
  } else {
    note = html`Installers send no token, and this server issues no personal install links (the config has no <code>feeds</code>): ask an
      admin for one.`;
  }
  const entries = (base === undefined ? [] : installEntries(base)).map(
    (entry) =>
      html`<section aria-labelledby="${`i-${entry.client.replace(/\W+/g, "-")}`}">
        <h3 id="${`i-${entry.client.replace(/\W+/g, "-")}`}">${entry.client}</h3>
        <p>In ${entry.where}:</p>
        <pre><code>${entry.text}</code></pre>
      </section>`,
  );
  return html`<h2 id="install">Install the skills into your agent</h2>
    <p>
      Most agents load skills from their own folders. The <code>skills</code> installer copies every skill you can
      see${library === "" ? "" : html` in ${library}`} into them, and updates them later. ${note}
    </p>
    ${entries}`;
}

/** The plugin section: the marketplace of the viewer's scope (or of the library asked), with the plugins they see,
 *  and how their credential reaches git. */
function pluginSection(data: ConnectData): Html {
  const library = data.asked;
  const viewer = data.viewer;
  const link = data.link;
  const credential = link !== undefined ? "link" : viewer !== null && !viewer.withProvider ? "token" : "none";
  const where = `${data.url.origin}${link?.path ?? ""}/plugins${library === "" ? "" : `/libraries/${encodeURIComponent(library)}`}/marketplace.json`;
  const name = library === "" ? SCOPE_MARKETPLACE : libraryMarketplaceName(library);
  const entries = marketplaceEntries(where, name, data.plugins, credential).map(
    (entry) =>
      html`<section aria-labelledby="${`p-${entry.client.replace(/\W+/g, "-")}`}">
        <h3 id="${`p-${entry.client.replace(/\W+/g, "-")}`}">${entry.client}</h3>
        <p>In ${entry.where}:</p>
        <pre><code>${entry.text}</code></pre>
      </section>`,
  );
  return html`<h2 id="plugins">Install the plugins</h2>
    <p>Each plugin you can see is a read-only git repository on this server, listed by a plugin marketplace.</p>
    ${entries}`;
}
