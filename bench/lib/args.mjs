// The command line of the bench scripts: `--key=value` flags (a bare `--key` is "true"), and the build a script
// measures: `--dist=DIR` (bench/run.mjs passes the run's copy of a build) or this checkout's dist/.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CHECKOUT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist");

/** `["--n=5", "--quick", "--config=a=b.yaml"]` => `{n: "5", quick: "true", config: "a=b.yaml"}`; anything not
 *  starting with `--` is refused, so a typo such as `-n=5` or a stray word is not read as a flag. */
export function parseFlags(argv) {
  const flags = {};
  for (const arg of argv) {
    if (!arg.startsWith("--") || arg.length === 2) throw new Error(`not a --flag or --flag=value: ${JSON.stringify(arg)}`);
    const at = arg.indexOf("=");
    flags[at === -1 ? arg.slice(2) : arg.slice(2, at)] = at === -1 ? "true" : arg.slice(at + 1);
  }
  return flags;
}

/** A bench script's flags, the build it measures and an importer of that build's modules (`load("live/index.js")`). */
export function scriptArgs(argv = process.argv.slice(2)) {
  const args = parseFlags(argv);
  const dist = path.resolve(args.dist ?? CHECKOUT_DIST);
  return { args, dist, load: (file) => import(pathToFileURL(path.join(dist, file)).href) };
}
