// Summarise a V8 CPU profile (from `npm run bench -- --profile=DIR`, or any `node --cpu-prof`): where the
// self time went, by function and by package/file, and the inclusive time of the functions named with --focus.
//   node bench/profile-summary.mjs FILE.cpuprofile [--top=25] [--focus=name1,name2] [--from=SEC] [--to=SEC]
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
const opt = Object.fromEntries(args.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=")));
const top = Number(opt.top ?? 25);
const profile = JSON.parse(fs.readFileSync(file, "utf8"));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
// --from=SEC / --to=SEC: only the samples in that window after the profile's start (e.g. skip a server's startup).
const fromUs = Number(opt.from ?? 0) * 1e6;
const toUs = Number(opt.to ?? Infinity) * 1e6;
const deltas = profile.timeDeltas.slice();
let clock = 0;
for (let i = 0; i < deltas.length; i++) {
  clock += profile.timeDeltas[i];
  if (clock < fromUs || clock > toUs) deltas[i] = 0;
}
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** `node_modules/@modelcontextprotocol/server/dist/index.mjs` => `@modelcontextprotocol/server`; dist/x/y.js => dist/x/y.js. */
function where(url) {
  if (!url) return "(native)";
  const clean = url.replace(/^file:\/\//, "");
  const nm = clean.lastIndexOf("node_modules/");
  if (nm !== -1) {
    const rest = clean.slice(nm + 13).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (clean.startsWith("node:")) return clean;
  const dist = clean.indexOf("/dist/");
  return dist !== -1 ? clean.slice(dist + 1) : path.basename(clean);
}
const label = (node) => `${node.callFrame.functionName || "(anonymous)"} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

const byFunction = new Map();
const byPlace = new Map();
for (const [id, us] of selfUs) {
  const node = nodes.get(id);
  byFunction.set(label(node), (byFunction.get(label(node)) ?? 0) + us);
  const place = where(node.callFrame.url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print("self time by package / file", byPlace);
print("self time by function", byFunction);

// Inclusive time of named functions: every sample whose stack contains one (counted once per sample).
if (opt.focus) {
  const names = opt.focus.split(",");
  const inclusive = new Map(names.map((n) => [n, 0]));
  for (let i = 0; i < profile.samples.length; i++) {
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (inclusive.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, inclusive.get(name) + (deltas[i] ?? 0));
      }
    }
  }
  print("inclusive time of --focus functions", inclusive);
}
