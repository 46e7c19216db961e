#!/usr/bin/env node
// The WebDAV server of the bench's webdav suite, in a process of its own so its CPU time is not the client's:
// webdav-server v2 over a folder, behind Basic auth. `node bench/webdav-share.mjs <root> <user> <password>
// <infinity|walk>` prints its origin on stdout; `GET /.bench-counts` answers the GETs and PROPFINDs it served.
import http from "node:http";
import { v2 as webdav } from "webdav-server";

const [root, user, password, depth] = process.argv.slice(2);
const users = new webdav.SimpleUserManager();
const privileges = new webdav.SimplePathPrivilegeManager();
privileges.setRights(users.addUser(user, password, false), "/", ["all"]);
const dav = new webdav.WebDAVServer({
  httpAuthentication: new webdav.HTTPBasicAuthentication(users, "bench"),
  privilegeManager: privileges,
  ...(depth === "infinity" ? { maxRequestDepth: Infinity } : {}),
});
await new Promise((resolve, reject) =>
  dav.setFileSystem("/", new webdav.PhysicalFileSystem(root), (ok) => (ok ? resolve() : reject(new Error("setFileSystem failed")))),
);
const counts = { gets: 0, propfinds: 0 };
const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/.bench-counts") {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(counts));
    return;
  }
  if (req.method === "GET") counts.gets++;
  if (req.method === "PROPFIND") counts.propfinds++;
  dav.executeRequest(req, res);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on("SIGTERM", () => process.exit(0));
