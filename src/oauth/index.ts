// Signing in: this server as an OAuth 2.1 protected resource of one issuer, and the identity a token stands for.
export { claimAt, grantOf, identityOf, type Claims, type Grant, type Identity, type SignedIn } from "./identity.js";
export { Issuer, type IssuerState } from "./issuer.js";
export { ResourceServer, type Authenticated, type OAuthState, type Refusal, type ResourceServerOptions } from "./resource-server.js";
export { PageClient, type PageClientOptions, type PageSignInResult, type PendingSignIn } from "./page-client.js";
