// A deterministic synthetic shelf: N skills over L libraries, with a skillshelf config beside them and a
// manifest (bench-shelf.json) that the benchmarks derive their URI mixes from.
//   node bench/gen-shelf.mjs --out=DIR [--n=10000] [--seed=7] [--libraries=20]
// The shape follows the real collections (../shared/corpora) and the yardstick's gen-synth.mjs: SKILL.md
// around 5 KB with a long tail, 2 more files per skill on average (references/, scripts/, assets/), ~2% of
// skills with a binary asset, a few files over 1 MB, and the odd cases harvest must skip or keep (a name
// that differs from its folder, no frontmatter, a description over 1024 characters, CRLF, a BOM, an
// in-root symlink). Unlike gen-synth it also gives each library shared files (`files: ["shared/**"]`),
// files only a fallback read reaches, folders of skills, and citations between files, so every kind of
// address in the resolver's mix exists. Those extras sit in the first two libraries only (RICH_LIBRARIES), so
// the listing keeps the shape the speed targets were set on (20 flat libraries: one row each), plus
// the few rows the extras add. 10,000 skills come to ~30k files and ~157 MB; 100,000 (the scale section's
// shelf, the same shape: 5,000 skills a library) to ~300k files and ~1.5 GB.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseFlags } from "./lib/args.mjs";
import { createRandom } from "./lib/random.mjs";

/** Bumped whenever the output changes, so a cached shelf from an older generator is never reused. */
export const GENERATOR_VERSION = 4;
/** Libraries that also hold folders of skills and shared library files. */
export const RICH_LIBRARIES = 2;
export const MANIFEST_FILE = "bench-shelf.json";

const WORDS = (
  "agent skill review deploy test build cluster query schema dashboard alert metric trace log incident release " +
  "migrate refactor document design api token cache index search vector prompt workflow pipeline report audit " +
  "policy secret config plugin library template sample protein genome spectra model fit plot tensor batch shard " +
  "replica quorum lease commit rollback latency budget error retry backoff timeout queue stream window join"
).split(" ");
const GROUPS = ["ops", "data", "research"];
const SUBDIRS = ["references", "references", "scripts", "assets", "templates", "references/deep"];
const CATEGORIES = ["engineering", "science", "operations", "writing"];

/** ~2 MB of prose to cut file bodies from: writing 150 MB word by word would dominate the generator's time. */
function buildTextPool(random, chars) {
  const parts = [];
  let length = 0;
  while (length < chars) {
    let line;
    const r = random.next();
    if (r < 0.04) line = `\n## ${random.pick(WORDS)} ${random.pick(WORDS)}\n`;
    else if (r < 0.2) line = `- ${random.pick(WORDS)} the ${random.pick(WORDS)} before ${random.pick(WORDS)}\n`;
    else if (r < 0.23) line = "```bash\nrun --" + random.pick(WORDS) + " " + random.pick(WORDS) + "\n```\n";
    else {
      const n = 6 + random.int(14);
      const words = [];
      for (let i = 0; i < n; i++) words.push(random.pick(WORDS));
      words[0] = words[0][0].toUpperCase() + words[0].slice(1);
      line = `${words.join(" ")}. `;
      if (random.chance(0.25)) line += "\n";
    }
    parts.push(line);
    length += line.length;
  }
  return parts.join("");
}

/** `n` characters of the pool from a random offset (wrapping), so two files rarely share their bytes. */
function cut(pool, random, n) {
  let out = "";
  let at = random.int(pool.length);
  while (out.length < n) {
    const take = Math.min(n - out.length, pool.length - at);
    out += pool.slice(at, at + take);
    at = 0;
  }
  return out;
}

function sentence(random, chars) {
  const words = [];
  let length = 0;
  while (length < chars) {
    const word = random.pick(WORDS);
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ").slice(0, chars).trim();
}

const pad = (i, width) => String(i).padStart(width, "0");

/** Write the shelf into `out` (replaced) and return its manifest. */
export function generateShelf({ out, n = 10000, seed = 7, libraries = 20 }) {
  for (const [name, value] of Object.entries({ n, seed, libraries }))
    if (!Number.isSafeInteger(value) || value < (name === "seed" ? 0 : 1))
      throw new Error(`gen-shelf: --${name} must be a whole number${name === "seed" ? "" : " ≥ 1"}, not ${value}`);
  const random = createRandom(seed);
  const pool = buildTextPool(random, 2_000_000);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const stats = {
    files: 0,
    bytes: 0,
    binary: 0,
    big: 0,
    symlinks: 0,
    crlf: 0,
    bom: 0,
    mismatch: 0,
    noFrontmatter: 0,
    longDescription: 0,
    dangling: 0,
  };
  const write = (file, data) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
    stats.files++;
    stats.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.length;
  };

  // Five digits up to 100,000 skills (the names of every smaller shelf are unchanged), more beyond.
  const width = Math.max(5, String(n - 1).length);
  const libs = [];
  for (let l = 0; l < Math.min(libraries, n); l++) {
    const name = `lib-${pad(l, 2)}`;
    const lib = {
      name,
      plugin: name,
      category: CATEGORIES[l % CATEGORIES.length],
      libraryFiles: [],
      fallbackFiles: ["README.md", "docs/notes.md"],
    };
    const root = path.join(out, name);
    for (let k = 0; k < (l < RICH_LIBRARIES ? 4 : 0); k++) {
      const file = `shared/guide-${k}.md`;
      write(path.join(root, file), `# ${name} guide ${k}\n\n${cut(pool, random, random.logNormal(3000, 0.6, 200, 40_000))}\n`);
      lib.libraryFiles.push(file);
    }
    write(path.join(root, "README.md"), `# ${name}\n\n${cut(pool, random, 1500)}\n`);
    write(path.join(root, "docs/notes.md"), `# Notes\n\n${cut(pool, random, 2500)}\n`);
    libs.push(lib);
  }

  const skills = [];
  const lastInFolder = new Map(); // `lib/group` => the previous served skill's name there, for sibling links
  for (let i = 0; i < n; i++) {
    const lib = libs[i % libs.length];
    const name = `${random.pick(WORDS)}-${random.pick(WORDS)}-${pad(i, width)}`;
    const rich = i % libs.length < RICH_LIBRARIES;
    const group = rich && random.chance(0.6) ? random.pick(GROUPS) : null;
    const dir = group === null ? `skills/${name}` : `skills/${group}/${name}`;
    const address = group === null ? [name] : [group, name];
    const abs = path.join(out, lib.name, dir);
    let served = true;
    let odd = null;

    // The skill's other files first, so SKILL.md can cite them.
    const files = [];
    const extra = random.count(2, 60);
    for (let k = 0; k < extra; k++) {
      const sub = random.pick(SUBDIRS);
      const ext = sub === "scripts" ? random.pick([".py", ".sh", ".ts"]) : random.pick([".md", ".md", ".md", ".json", ".txt"]);
      const file = `${sub}/f${k}${ext}`;
      write(path.join(abs, file), `${file}\n${cut(pool, random, random.logNormal(2600, 1.0, 60, 400_000))}\n`);
      files.push(file);
    }
    if (random.chance(0.02)) {
      const bytes = Buffer.alloc(2048 + random.int(60_000));
      for (let j = 0; j < bytes.length; j++) bytes[j] = random.int(256);
      bytes[0] = 0x89; // a PNG signature byte: never valid UTF-8, so it is served as a blob
      write(path.join(abs, "assets/image.png"), bytes);
      files.push("assets/image.png");
      stats.binary++;
    }
    if (random.chance(0.001)) {
      write(path.join(abs, "references/huge.md"), `# huge\n\n${cut(pool, random, 1_200_000)}\n`);
      files.push("references/huge.md");
      stats.big++;
    }

    let description = sentence(random, 40 + random.int(360));
    const r = random.next();
    let frontmatterName = name;
    if (r < 0.005) {
      frontmatterName = `${name}-renamed`;
      served = false;
      odd = "mismatch";
      stats.mismatch++;
    } else if (r < 0.008) {
      description = sentence(random, 1100);
      served = false;
      odd = "longDescription";
      stats.longDescription++;
    } else if (r < 0.0085) {
      served = false;
      odd = "noFrontmatter";
      stats.noFrontmatter++;
    }

    const cites = [];
    for (const file of files.slice(0, 3)) cites.push(`- [${path.basename(file)}](${file})`);
    if (random.chance(0.05) && files.length > 0) cites.push(`Run \`\${CLAUDE_SKILL_DIR}/${files[0]}\` first.`);
    if (rich && random.chance(0.05)) cites.push(`See \${CLAUDE_PLUGIN_ROOT}/shared/guide-${random.int(4)}.md for the house rules.`);
    const sibling = lastInFolder.get(`${lib.name}/${group}`);
    if (sibling !== undefined && random.chance(0.05)) cites.push(`- [${sibling}](../${sibling}/SKILL.md)`);
    if (random.chance(0.01)) {
      cites.push("- [old notes](references/removed.md)"); // a citation that leads nowhere (§3.6)
      stats.dangling++;
    }
    const body = `# ${name}\n\n${cites.join("\n")}\n\n${cut(pool, random, random.logNormal(3800, 0.8, 300, 200_000))}\n`;
    let text =
      odd === "noFrontmatter"
        ? body
        : `---\nname: ${frontmatterName}\ndescription: ${JSON.stringify(description)}\nlicense: MIT\nmetadata:\n  library: ${lib.name}\n  version: "1.${i % 9}"\n---\n\n${body}`;
    if (random.chance(0.004)) {
      text = text.replace(/\n/g, "\r\n");
      stats.crlf++;
    }
    if (random.chance(0.001)) {
      text = `\uFEFF${text}`;
      stats.bom++;
    }
    write(path.join(abs, "SKILL.md"), text);
    if (random.chance(0.001)) {
      fs.symlinkSync("SKILL.md", path.join(abs, "link.md")); // stays inside the root: followed, served as link.md
      files.push("link.md");
      stats.symlinks++;
    }
    if (served) lastInFolder.set(`${lib.name}/${group}`, name);
    skills.push({ lib: lib.name, dir, address, name, description, files: ["SKILL.md", ...files].sort(), served, odd });
  }

  const config =
    "# Generated by bench/gen-shelf.mjs: one plugin and one library per lib-NN folder.\nplugins:\n" +
    libs
      .map(
        (lib) =>
          `  - name: ${lib.plugin}\n    source: ./${lib.name}\n    category: ${lib.category}\n    tags: [bench]\n${lib.libraryFiles.length ? '    files: ["shared/**"]\n' : ""}`,
      )
      .join("") +
    "libraries:\n" +
    libs.map((lib) => `  - name: ${lib.name}\n    plugins: [${lib.plugin}]\n`).join("");
  fs.writeFileSync(path.join(out, "skillshelf.yaml"), config);

  const manifest = {
    generator: GENERATOR_VERSION,
    params: { n, seed, libraries: libs.length },
    config: "skillshelf.yaml",
    stats: { skills: n, served: skills.filter((s) => s.served).length, ...stats },
    libraries: libs,
    skills,
  };
  // Written last: its presence marks a complete shelf that a later run may reuse.
  fs.writeFileSync(path.join(out, MANIFEST_FILE), JSON.stringify(manifest));
  return manifest;
}

/** The shelf for these parameters under `baseDir`, generated unless a complete one from this generator is there. */
export function ensureShelf({ baseDir, n, seed, libraries = 20, fresh = false, log = () => {} }) {
  const out = path.join(baseDir, `shelf-n${n}-s${seed}-l${libraries}-g${GENERATOR_VERSION}`);
  const manifestPath = path.join(out, MANIFEST_FILE);
  if (!fresh && fs.existsSync(manifestPath)) {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    if (manifest.generator === GENERATOR_VERSION) return { dir: out, manifest, reused: true, ms: 0 };
  }
  const t0 = performance.now();
  log(`generating ${n} skills (seed ${seed}) into ${out}`);
  const manifest = generateShelf({ out, n, seed, libraries });
  return { dir: out, manifest, reused: false, ms: performance.now() - t0 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseFlags(process.argv.slice(2));
  if (!args.out) {
    process.stderr.write("usage: node bench/gen-shelf.mjs --out=DIR [--n=10000] [--seed=7] [--libraries=20]\n");
    process.exit(2);
  }
  const t0 = performance.now();
  const manifest = generateShelf({
    out: path.resolve(args.out),
    n: Number(args.n ?? 10000),
    seed: Number(args.seed ?? 7),
    libraries: Number(args.libraries ?? 20),
  });
  process.stderr.write(`${JSON.stringify({ out: path.resolve(args.out), ms: Math.round(performance.now() - t0), ...manifest.stats })}\n`);
}
