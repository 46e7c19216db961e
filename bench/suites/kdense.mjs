// The K-Dense collection (a real layout nobody here wrote): reads/s at 8 concurrent requests over stdio and
// HTTP, every file every skill publishes, skillshelf next to the SDK's skills server and the floor.
import fs from "node:fs";
import path from "node:path";
import { createRandom } from "../lib/random.mjs";
import { floorSpec, peerLoadMs, peerSpec, skillshelfSpec, startServer } from "../lib/servers.mjs";
import { loadWorkload } from "./serve.mjs";

/** Every resource URI a server's skills/list publishes, shuffled the same way for every server. */
async function publishedUris(handle, seed) {
  const uris = [];
  for (let cursor = null; ;) {
    const reply = await handle.send(handle.prepare("skills/list", cursor === null ? {} : { cursor }));
    const result = reply.message?.result;
    if (!result) throw new Error(`skills/list failed on ${handle.name}: ${JSON.stringify(reply.message)}`);
    for (const skill of result.skills) for (const resource of skill.resources) uris.push(resource.uri);
    if (result.nextCursor === undefined) break;
    cursor = result.nextCursor;
  }
  return createRandom(seed).shuffle(uris.sort());
}

const readsOf = (uris) => ({
  id: "read-all-files",
  method: "resources/read",
  calls: uris.map((uri) => ({ params: { uri }, expect: "hit" })),
});

export async function runKDenseSuite(ctx) {
  const { projectRoot, workDir, log, options, kit } = ctx;
  const root = path.resolve(projectRoot, "../shared/corpora/k-dense-scientific");
  if (!fs.existsSync(root)) return { error: `not found: ${root}` };
  // A plugin over the collection's folder of skills (the marketplace file lists the same 129 paths).
  const config = path.join(workDir, "k-dense.yaml");
  fs.writeFileSync(
    config,
    `plugins:\n  - name: k-dense\n    source: ${root}\n    skills: ["scientific-skills/*"]\nlibraries:\n  - name: k-dense\n    plugins: [k-dense]\n`,
  );
  const c = Math.max(...options.concurrency);
  const out = { loads: [], servers: {} };
  const meanBytes = {};

  log("k-dense: skillshelf over stdio and HTTP");
  const stdio = await startServer(
    skillshelfSpec({ projectRoot, appRoot: ctx.appRoot, config, transport: "stdio", nodeArgs: ctx.nodeArgs("server") }),
  );
  const ourUris = await publishedUris(stdio, options.seed);
  const ours = readsOf(ourUris);
  let row = await loadWorkload(stdio, ours, c, ctx);
  out.loads.push(row);
  meanBytes["stdio/legacy"] = row.meanBytes;
  out.servers.skillshelf = { files: ourUris.length, stdioMemory: stdio.memory() };
  await stdio.close();
  const http = await startServer(
    skillshelfSpec({ projectRoot, appRoot: ctx.appRoot, config, transport: "http", era: "modern", nodeArgs: ctx.nodeArgs("server") }),
  );
  for (const era of ["modern", "legacy"]) {
    const handle = era === "modern" ? http : http.withEra(era);
    row = await loadWorkload(handle, ours, c, ctx);
    out.loads.push(row);
    meanBytes[`http/${era}`] = row.meanBytes;
    if (handle !== http) await handle.close();
  }
  out.servers.skillshelf.httpMemory = http.memory();
  await http.close();

  if (kit.script) {
    log("k-dense: the SDK skills server over stdio and HTTP");
    const peerStdio = await startServer(await peerSpec({ kit, root, transport: "stdio" }));
    const peerUris = await publishedUris(peerStdio, options.seed);
    const theirs = { ...readsOf(peerUris), peerCalls: readsOf(peerUris).calls };
    out.loads.push(await loadWorkload(peerStdio, theirs, c, ctx, { peer: true }));
    out.servers.peer = { files: peerUris.length, load: peerLoadMs(peerStdio.stderr()), stdioMemory: peerStdio.memory() };
    await peerStdio.close();
    const peerHttp = await startServer(await peerSpec({ kit, root, transport: "http", era: "modern" }));
    for (const era of ["modern", "legacy"]) {
      const handle = era === "modern" ? peerHttp : peerHttp.withEra(era);
      out.loads.push(await loadWorkload(handle, theirs, c, ctx, { peer: true }));
      if (handle !== peerHttp) await handle.close();
    }
    out.servers.peer.httpMemory = peerHttp.memory();
    await peerHttp.close();
  }

  // The floor does not change with the build: measured beside this checkout's build only (not a --baseline's).
  if (ctx.references === false) return out;
  log("k-dense: the floor");
  const meanUri = ourUris.reduce((sum, uri) => sum + uri.length, 0) / ourUris.length;
  for (const [transport, era] of [
    ["stdio", "legacy"],
    ["http", "modern"],
    ["http", "legacy"],
  ]) {
    const probe = await startServer(floorSpec({ projectRoot, transport, era, readBytes: 0 }));
    const reply = await probe.send(probe.prepare("resources/read", { uri: ourUris[0] }));
    const envelope = reply.bytes - ourUris[0].length;
    await probe.close();
    const handle = await startServer(
      floorSpec({ projectRoot, transport, era, readBytes: meanBytes[`${transport}/${era}`] - envelope - meanUri }),
    );
    out.loads.push(await loadWorkload(handle, ours, c, ctx, { floor: true }));
    await handle.close();
  }
  return out;
}
