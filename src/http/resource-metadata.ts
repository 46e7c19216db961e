// RFC 9728 protected resource metadata, served before any token is asked for: a client that got a 401 from /mcp
// reads it to learn which authorization server signs users in for this resource.
import type { Express } from "express";
import type { ResourceServer } from "../oauth/index.js";

export function routeResourceMetadata(app: Express, oauth: ResourceServer): void {
  for (const path of oauth.metadataPaths) {
    app.get(path, (_req, res) => {
      // Public and the same for everyone; a browser-based client reads it from another origin.
      res.set("Access-Control-Allow-Origin", "*").set("Cache-Control", "public, max-age=300").json(oauth.metadata());
    });
  }
}
