// Discovery against a plain HTTP server on loopback: RFC 8414's path-inserted metadata when OpenID discovery is
// absent, and a document naming another issuer refused (mix-up protection) with no key ever trusted.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Issuer } from "../../src/oauth/index.js";

let server: Server;
let origin: string;
const routes = new Map<string, unknown>();
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    served.push(path);
    const body = routes.get(path);
    res.shouldKeepAlive = false;
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { publicKey } = await generateKeyPair("ES256");
  routes.set("/keys", { keys: [{ ...(await exportJWK(publicKey)), kid: "a", alg: "ES256", use: "sig" }] });
  routes.set("/.well-known/oauth-authorization-server/tenant", { issuer: `${origin}/tenant`, jwks_uri: `${origin}/keys` });
  routes.set("/impostor/.well-known/openid-configuration", { issuer: "https://elsewhere.example", jwks_uri: `${origin}/keys` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("without OpenID discovery, the RFC 8414 document under the issuer's path is read", async () => {
  const changes: string[] = [];
  const issuer = new Issuer(`${origin}/tenant`, { onChange: (level, message) => changes.push(`${level} ${message}`) });
  await issuer.refresh();
  expect({ ...issuer.state(), lastRefresh: typeof issuer.state().lastRefresh }).toEqual({
    issuer: `${origin}/tenant`,
    metadata: `${origin}/.well-known/oauth-authorization-server/tenant`,
    keys: 1,
    lastRefresh: "string",
    lastError: null,
  });
  expect(served).toContain("/tenant/.well-known/openid-configuration");
  expect(changes).toEqual(["info oauth: signing keys read"]);
});

test("a document naming another issuer is refused, once in the log, and no key is trusted", async () => {
  const changes: string[] = [];
  const issuer = new Issuer(`${origin}/impostor`, { cooldownMs: 0, onChange: (level, message) => changes.push(`${level} ${message}`) });
  await issuer.refresh();
  await issuer.refresh();
  expect(issuer.state()).toEqual({
    issuer: `${origin}/impostor`,
    metadata: null,
    keys: 0,
    lastRefresh: null,
    lastError: `${origin}/impostor/.well-known/openid-configuration names another issuer than the configured one`,
  });
  expect(changes).toEqual(["warn oauth: cannot read the issuer's metadata"]);
  await expect(issuer.key({ alg: "ES256", kid: "a" }, { payload: "", signature: "" })).rejects.toThrow(
    "names another issuer than the configured one",
  );
});
