// The sign-in page: with the provider (a link), with a client's token (a form), or both.
import { html } from "../html.js";
import { CSRF_FIELD } from "../security.js";
import type { PageView } from "./parts.js";

export interface SignInData {
  /** Why the visitor is asked, when it is not their choice (a refused token, a private server). */
  readonly message: string | null;
  /** The provider's name, when the page signs in with one. */
  readonly providerName: string | undefined;
  /** Clients are declared: a form takes a token. */
  readonly tokenForm: boolean;
  /** This browser's form token. */
  readonly csrf: string;
}

export function signInView(data: SignInData): PageView {
  const message = data.message;
  const withProvider =
    data.providerName === undefined
      ? ""
      : html`<p>
            Sign in with your account at ${data.providerName} to see what your groups may see. This browser then holds only a random session
            id, in a cookie no page script can read; your token stays on this server until it expires or you sign out.
          </p>
          <p><a class="button" href="/signin/oidc">Sign in with ${data.providerName}</a></p>`;
  const withToken = !data.tokenForm
    ? ""
    : html`${data.providerName === undefined ? "" : html`<h2>With a client token</h2>`}
        <p>
          Sign in with the token of your client to see what it may see. The token is kept in a cookie of this browser that no page script
          can read, until you sign out or close the browser.
        </p>
        <form class="signin" method="post" action="/signin">
          <input type="hidden" name="${CSRF_FIELD}" value="${data.csrf}" />
          <label for="token">Token</label>
          <input type="password" id="token" name="token" autocomplete="off" required />
          <p><button type="submit">Sign in</button></p>
        </form>`;
  const body = html`<h1>Sign in</h1>
    ${message === null ? "" : html`<p class="note" role="alert">${message}</p>`} ${withProvider} ${withToken}`;
  return { title: "Sign in", crumbs: [], body };
}
