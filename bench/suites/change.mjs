// Live changes (SPEC §12: "time from a file change to the notification"): on a copy of the shelf, served over
// stdio to a 2025-era client that subscribed to one SKILL.md, edit that file's description, then add a new
// skill; time from the write to the first notification and to the change being readable. Next to the SDK
// peer with --watch (which re-reads its whole catalog on a change) where its start fits the run's budget.
import fs from "node:fs";
import path from "node:path";
import { waitIdle } from "../lib/proc.mjs";
import { peerSpec, skillshelfSpec, startServer } from "../lib/servers.mjs";

const TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll `read(uri)` until its text includes `needle`: ms from `t0`, or null after the timeout. */
async function visibleAfter(handle, uri, needle, t0) {
  const prepared = handle.prepare("resources/read", { uri });
  while (performance.now() - t0 < TIMEOUT_MS) {
    const reply = await handle.send(prepared).catch(() => null);
    const text = reply?.message?.result?.contents?.[0]?.text;
    if (typeof text === "string" && text.includes(needle)) return performance.now() - t0;
    await sleep(20);
  }
  return null;
}

/** Edit `skill`'s SKILL.md on `shelfDir`, then add a skill beside it. */
export async function measureChanges(handle, shelfDir, skill, uriOf) {
  const out = {};
  const skillMd = path.join(shelfDir, skill.lib, skill.dir, "SKILL.md");
  const uri = uriOf(skill);
  await handle.send(handle.prepare("resources/subscribe", { uri }));

  // 1. Edit a served SKILL.md's description (a subscribed URI).
  const marker = `bench-edit-${process.pid}-${Date.now().toString(36)}`;
  let t0 = performance.now();
  const updated = handle.waitForNotification(
    (m) => m.method === "notifications/resources/updated" || m.method === "notifications/resources/list_changed",
    TIMEOUT_MS,
  );
  fs.writeFileSync(skillMd, fs.readFileSync(skillMd, "utf8").replace('description: "', `description: "${marker} `));
  const visible = await visibleAfter(handle, uri, marker, t0);
  const noted = await updated;
  out.edit = { notifiedMs: noted === null ? null : noted - t0, visibleMs: visible };

  // 2. Add a new skill: the listing and skills/list change.
  const name = `zz-bench-added-${Date.now().toString(36)}`;
  const added = {
    ...skill,
    dir: path.posix.join(path.posix.dirname(skill.dir), name),
    address: [...skill.address.slice(0, -1), name],
    name,
  };
  t0 = performance.now();
  const listChanged = handle.waitForNotification((m) => m.method === "notifications/resources/list_changed", TIMEOUT_MS);
  const dir = path.join(shelfDir, added.lib, added.dir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: "A skill added while serving (${marker})."\n---\n\n# ${name}\n\nAdded by the benchmark.\n`,
  );
  const addVisible = await visibleAfter(handle, uriOf(added), marker, t0);
  const addNoted = await listChanged;
  out.add = { notifiedMs: addNoted === null ? null : addNoted - t0, visibleMs: addVisible };
  return out;
}

export async function runChangeSuite(ctx, shelf, { peer = false } = {}) {
  const { projectRoot, workDir, log, kit } = ctx;
  const n = shelf.manifest.params.n;
  const skill = shelf.manifest.skills.find((s) => s.served && s.address.length === 1 && !s.files.includes("link.md"));
  const out = { n };

  const copy = async (label) => {
    const dir = path.join(workDir, `change-${label}-${n}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(shelf.dir, dir, { recursive: true, verbatimSymlinks: true });
    return dir;
  };

  log(`change ${n}: edit and add on a copy, skillshelf over stdio`);
  const ours = await copy("skillshelf");
  const handle = await startServer(
    skillshelfSpec({
      projectRoot,
      appRoot: ctx.appRoot,
      config: path.join(ours, shelf.manifest.config),
      transport: "stdio",
      nodeArgs: ctx.nodeArgs("server"),
    }),
  );
  await handle.send(handle.prepare("resources/list", {}));
  // The edit is timed on a server that has finished starting: its watches set up and the rescan that follows them
  // done (both come after the first listing; an edit made meanwhile waits for that rescan). Then a second more.
  await waitIdle(handle.pid, { maxMs: 60_000 });
  await sleep(1000);
  try {
    out.skillshelf = await measureChanges(handle, ours, skill, (s) => `skill://${s.lib}/${s.address.join("/")}/SKILL.md`);
  } finally {
    out.skillshelfMemory = handle.memory();
    await handle.close();
    fs.rmSync(ours, { recursive: true, force: true });
  }

  if (peer && kit.script) {
    log(`change ${n}: the same on the SDK peer (--watch)`);
    const theirs = await copy("peer");
    const peerHandle = await startServer(await peerSpec({ kit, root: theirs, transport: "stdio", watch: true }));
    await waitIdle(peerHandle.pid, { maxMs: 60_000 });
    await sleep(1000);
    try {
      out.peer = await measureChanges(peerHandle, theirs, skill, (s) => `skill://${s.lib}/${s.dir}/SKILL.md`);
    } finally {
      await peerHandle.close();
      fs.rmSync(theirs, { recursive: true, force: true });
    }
  }
  return out;
}
