// The floor: a bare MCP server on the same SDK and serving entries as skillshelf (createMcpHandler on plain
// node:http, or serveStdio) whose every resources/read returns one fixed body, and whose skills/list and
// resources/list return one fixed result. Whatever skillshelf does beyond this is our cost; the ratio
// skillshelf / floor is how close we come to what the protocol layer allows.
//   node bench/floor-server.mjs [--transport=stdio|http] [--read-bytes=N] [--skills-file=F] [--listing-file=F]
// --read-bytes: length of the fixed text every read returns (the bench sets it to the mean size of
// skillshelf's answers on the same mix); --skills-file / --listing-file: a JSON result (skillshelf's own page,
// captured by the bench) returned verbatim, so the bytes on the wire match.
import fs from "node:fs";
import http from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const transport = args.transport ?? "stdio";
const readBytes = Number(args["read-bytes"] ?? 4096);
const LINE = "Fixed floor body: the same bytes for every read, so only the protocol layer is measured.\n";
const TEXT = LINE.repeat(Math.ceil(readBytes / LINE.length)).slice(0, readBytes);
const SKILLS = args["skills-file"] ? JSON.parse(fs.readFileSync(args["skills-file"], "utf8")) : { skills: [] };
const LISTING = args["listing-file"] ? JSON.parse(fs.readFileSync(args["listing-file"], "utf8")) : { resources: [] };

// Built per request, as createMcpHandler requires: the same shape as skillshelf's factory, minus the shelf.
function factory() {
  const mcp = new McpServer({ name: "floor", version: "0" }, { instructions: "A fixed body for every read." });
  mcp.server.registerCapabilities({ resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } });
  mcp.server.setRequestHandler("resources/list", () => LISTING);
  mcp.server.setRequestHandler("resources/read", { params: z.looseObject({ uri: z.string() }) }, ({ uri }) => ({
    contents: [{ uri, mimeType: "text/markdown", text: TEXT }],
  }));
  mcp.server.setRequestHandler("skills/list", { params: z.looseObject({ cursor: z.string().optional() }) }, () => SKILLS);
  return mcp;
}

if (transport === "http") {
  const handler = createMcpHandler(factory);
  const node = toNodeHandler(handler);
  const server = http.createServer((req, res) => void node(req, res));
  server.listen(Number(args.port ?? 0), "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`);
  });
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
} else {
  const handle = serveStdio(factory);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.stdin.once("end", stop);
}
