// `check`: harvest once, print the report (and SARIF), exit with what it found.
import { writeFile } from "node:fs/promises";
import { buildHealth, formatCheckReport, formatSarif, hasProblems, localFolders } from "../health/index.js";
import { ShelfService } from "../live/index.js";
import type { Values } from "../settings.js";
import { type CommandSpec, EXIT_CODES } from "../usage.js";
import { cacheDirOf, readConfig, usableCacheDir } from "./inputs.js";

export async function runCheck(command: CommandSpec, values: Values, dirs: readonly string[]): Promise<number> {
  const config = await readConfig(command, values, dirs);
  const cacheDir = await usableCacheDir(command, values, cacheDirOf(command, values), (message, fields) =>
    process.stderr.write(`skillshelf check: warning: ${message} (${fields["path"]}: ${fields["error"]})\n`),
  );
  const service = await ShelfService.start(config, () => new Date(), { ...(cacheDir === undefined ? {} : { cacheDir }), env: process.env });
  await service.close();
  const report = buildHealth(service.current);
  process.stdout.write(values["json"] === true ? `${JSON.stringify(report, null, 2)}\n` : formatCheckReport(report));
  const sarif = values["sarif"];
  if (typeof sarif === "string") await writeFile(sarif, await formatSarif(service.current, localFolders(config), process.cwd()));
  // A refused credential fails its fetch only, as it does for `serve`; `check` still says so with its own exit code.
  const refused = service.refusedCredentials;
  for (const { fetch, reason } of refused) process.stderr.write(`skillshelf check: fetch ${fetch}: ${reason}\n`);
  if (refused.length > 0) return EXIT_CODES.credential;
  return hasProblems(report) ? EXIT_CODES.problems : EXIT_CODES.ok;
}
