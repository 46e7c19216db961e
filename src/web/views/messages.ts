// The page's short answers: nothing here, a bad request, a refused form, a sign-in that failed, a page for admins.
import { html } from "../html.js";
import type { PageView } from "./parts.js";

export function notFoundView(): PageView {
  return {
    title: "Not found",
    crumbs: [],
    body: html`<h1>Not found</h1>
      <p>There is nothing at this address that you can see. <a href="/">Start from the libraries</a> or search.</p>`,
  };
}

export function badRequestView(message: string): PageView {
  return {
    title: "Bad request",
    crumbs: [],
    body: html`<h1>Bad request</h1>
      <p>${message}</p>`,
  };
}

/** An address whose `%` escapes do not decode. */
export function malformedAddressView(): PageView {
  return {
    title: "Bad request",
    crumbs: [],
    body: html`<h1>Bad request</h1>
      <p>This address has a malformed % escape. <a href="/">Start from the libraries</a> or search.</p>`,
  };
}

export function formRefusedView(): PageView {
  return {
    title: "Form refused",
    crumbs: [],
    body: html`<h1>Form refused</h1>
      <p>This form did not come from this page or has expired. Reload the page and send it again.</p>`,
  };
}

export function signInFailedView(message: string): PageView {
  return {
    title: "Sign-in failed",
    crumbs: [],
    body: html`<h1>Sign-in failed</h1>
      <p role="alert">${message}</p>
      <p><a href="/signin">Sign in again</a></p>`,
  };
}

export function forAdminsView(): PageView {
  return {
    title: "For admins",
    crumbs: [],
    body: html`<h1>For admins</h1>
      <p>The health view is for admin clients.</p>`,
  };
}
