// URI mixes derived from a generated shelf's manifest (never from the server under test): what a read
// of each URI must answer is known in advance, so a benchmark also counts wrong answers.
import { createRandom } from "./random.mjs";

/** Weights of the mixed read workload (sum 100): mostly skill files, some documents, fallbacks and misses. */
export const READ_MIX = [
  ["skillMd", 34, "hit"],
  ["skillFile", 20, "hit"],
  ["manifest", 10, "hit"],
  ["libraryIndex", 4, "hit"],
  ["folderIndex", 4, "hit"],
  ["filesList", 3, "hit"],
  ["libraryFile", 4, "hit"],
  ["skillFallback", 3, "hit"],
  ["libraryFallback", 3, "hit"],
  ["dotSegments", 2, "hit"],
  ["missSkill", 4, "miss"],
  ["missDirectory", 4, "miss"],
  ["missSkipped", 1, "miss"],
  ["missHidden", 1, "miss"],
  ["missLibrary", 1, "miss"],
  ["malformed", 2, "miss"],
];

const enc = (segments) => segments.map(encodeURIComponent).join("/");
export const skillUri = (skill) => `skill://${skill.lib}/${enc(skill.address)}`;

/** `count` URIs in the READ_MIX proportions, shuffled with `seed`: `[{uri, kind, expect}]`. */
export function readMix(manifest, count, seed = 1) {
  const random = createRandom(seed);
  const served = manifest.skills.filter((s) => s.served);
  const skipped = manifest.skills.filter((s) => !s.served);
  const grouped = served.filter((s) => s.address.length > 1);
  const withFiles = served.filter((s) => s.files.length > 1);
  const libs = manifest.libraries;
  const rich = libs.filter((l) => l.libraryFiles.length > 0);
  const richSkills = served.filter((s) => rich.some((l) => l.name === s.lib));
  const makers = {
    skillMd: () => `${skillUri(random.pick(served))}/SKILL.md`,
    skillFile: () => {
      const skill = random.pick(withFiles);
      return `${skillUri(skill)}/${enc(random.pick(skill.files.filter((f) => f !== "SKILL.md")).split("/"))}`;
    },
    manifest: () => `${skillUri(random.pick(served))}/_manifest`,
    libraryIndex: () => `skill://${random.pick(libs).name}/_index.md`,
    folderIndex: () => {
      const skill = random.pick(grouped);
      return `skill://${skill.lib}/${enc(skill.address.slice(0, -1))}/_index.md`;
    },
    filesList: () => `skill://${random.pick(rich).name}/_files.md`,
    libraryFile: () => {
      const lib = random.pick(rich);
      return `skill://${lib.name}/${enc(random.pick(lib.libraryFiles).split("/"))}`;
    },
    // The plugin-root fallback: a skill-relative path that is really the plugin's shared file (§2.2 step 1).
    skillFallback: () => {
      const skill = random.pick(richSkills);
      const lib = rich.find((l) => l.name === skill.lib);
      return `${skillUri(skill)}/${enc(random.pick(lib.libraryFiles).split("/"))}`;
    },
    // The library-level fallback: a plugin file no `files` glob publishes (§2.2 step 4).
    libraryFallback: () => {
      const lib = random.pick(libs);
      return `skill://${lib.name}/${enc(random.pick(lib.fallbackFiles).split("/"))}`;
    },
    dotSegments: () => {
      const skill = random.pick(served);
      return `skill://${skill.lib}/nowhere/%2e%2e/${enc(skill.address)}/./SKILL.md`;
    },
    missSkill: () => `skill://${random.pick(libs).name}/no-such-skill-${random.int(1e6)}/SKILL.md`,
    missDirectory: () => skillUri(random.pick(served)), // a skill's directory: not found, with a hint
    missSkipped: () => (skipped.length ? `${skillUri(random.pick(skipped))}/SKILL.md` : `skill://${libs[0].name}/skipped/SKILL.md`),
    missHidden: () => `${skillUri(random.pick(served))}/.env`,
    missLibrary: () => `skill://no-such-library-${random.int(100)}/_index.md`,
    malformed: () => `skill://${random.pick(libs).name}/bad%zzescape/SKILL.md`,
  };
  const total = READ_MIX.reduce((sum, [, weight]) => sum + weight, 0);
  const out = [];
  for (const [kind, weight, expect] of READ_MIX) {
    const n = Math.round((count * weight) / total);
    for (let i = 0; i < n; i++) out.push({ uri: makers[kind](), kind, expect });
  }
  return random.shuffle(out);
}

/** `count` SKILL.md reads of served skills (the workload the SDK peer can also serve), with the peer's URI for
 *  the same file: the peer addresses a skill by its folder path below the corpus root. */
export function skillMdMix(manifest, count, seed = 2) {
  const random = createRandom(seed);
  const served = manifest.skills.filter((s) => s.served);
  const out = [];
  for (let i = 0; i < count; i++) {
    const skill = random.pick(served);
    out.push({ uri: `${skillUri(skill)}/SKILL.md`, peerUri: `skill://${skill.lib}/${skill.dir}/SKILL.md`, kind: "skillMd", expect: "hit" });
  }
  return out;
}
