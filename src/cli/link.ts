// `link`: an install link for a configured client; nothing is harvested.
import { UsageError, type Values } from "../settings.js";
import { type CommandSpec, EXIT_CODES } from "../usage.js";
import { readConfig } from "./inputs.js";
import { createFeeds } from "./secrets.js";

/** `link`: an install link for a configured client, signed with the feeds secret; nothing is harvested. */
export async function runLink(command: CommandSpec, values: Values, positionals: readonly string[]): Promise<number> {
  if (positionals.length > 0) throw new UsageError([`unexpected argument '${positionals[0]}'`], command);
  const name = values["client"];
  const base = values["url"];
  if (typeof name !== "string" || typeof base !== "string") throw new UsageError(["give --client NAME and --url URL"], command);
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError([`--url '${base}' is not an absolute URL (https://skills.example.com)`], command);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError([`--url must be http or https, not ${url.protocol}`], command);
  const config = await readConfig(command, values, []);
  const client = config.clients.find((candidate) => candidate.name === name);
  if (client === undefined) {
    const known = config.clients.map((candidate) => candidate.name).join(", ");
    throw new UsageError(
      [`no client '${name}' in the config${known === "" ? " (it declares none)" : ` (its clients: ${known})`}`],
      command,
    );
  }
  const feeds = createFeeds(config, [client], await import("../http/index.js"));
  if (feeds === undefined) throw new UsageError(["the config has no feeds key: add feeds.secret to issue install links"], command);
  const issued = await feeds.issue({ name: client.name, scope: client.scope, user: false });
  const link = `${url.origin}${url.pathname.replace(/\/+$/, "")}/feeds/${issued.token}`;
  process.stdout.write(`${link}\nid: ${issued.id}\nexpires: ${issued.expires.toISOString()}\n`);
  return EXIT_CODES.ok;
}
