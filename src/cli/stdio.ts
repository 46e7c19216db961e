// `serve --transport stdio`: one client on stdin/stdout, its ceiling from the flags.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Logger } from "../log/index.js";
import type { ShelfHolder } from "../live/index.js";
import { buildMcpServer, DEFAULT_VIEW, type RequestView, type ServerDeps, SessionRegistry } from "../mcp/index.js";
import { compileScope, scopeOn } from "../resolve/index.js";
import { listSetting, UsageError, type Values } from "../settings.js";
import { type CommandSpec, EXIT_CODES } from "../usage.js";
import { logError } from "./log.js";

/** Over stdio there is no token: the flags set the ceiling, refused at startup like a bad argument. Resolves with the
 *  exit code once the client hangs up or a signal asks. */
export async function serveOverStdio(
  command: CommandSpec,
  values: Values,
  deps: ServerDeps,
  holder: ShelfHolder,
  close: () => Promise<void>,
  log: Logger,
): Promise<number> {
  const ceiling = {
    ...(typeof values["library"] === "string" ? { library: values["library"] } : {}),
    categories: listSetting(command, values, "categories", process.env),
    tags: listSetting(command, values, "tags", process.env),
  };
  // Refused at startup against the first shelf; each connection then compiles it against the shelf it reads.
  const compiled = compileScope(holder.current, null, ceiling);
  if (!compiled.ok) throw new UsageError([compiled.message], command);
  const view: RequestView = { ...DEFAULT_VIEW, scopeOn: scopeOn(null, ceiling), personal: compiled.scope.key !== "*" };
  const sessions = new SessionRegistry();
  holder.onSwap((next, previous) => void sessions.announce(previous, next));
  const handle = serveStdio(
    (ctx) => {
      const subscriptions = new Set<string>();
      const mcp = buildMcpServer(deps, view, ctx.era, subscriptions);
      sessions.add({ mcp, view, subscriptions });
      return mcp;
    },
    { onerror: (error) => logError(log, error) },
  );
  // Signals are handled before the startup line: a supervisor may signal the moment it sees it.
  const stopped = new Promise<number>((resolve) => {
    // A client that hangs up often signals too: the server stops once, and exits when that stop is done.
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      void handle
        .close()
        .then(close)
        .then(() => resolve(EXIT_CODES.ok));
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    process.stdin.once("end", stop);
  });
  log.log("info", "serving over stdio");
  return stopped;
}
