// Announcing a rebuild to connected clients, once per kind of change and never one notification per skill:
// stdio sessions (either era) and 2025-era HTTP sessions through their own server instance, diffed under their own
// scope; 2026-07-28 HTTP clients through the notifier of their scope's handler, which fans out to their
// `subscriptions/listen` streams.
import type { McpServer, ServerNotifier } from "@modelcontextprotocol/server";
import { changedUris, diffShelves, readKey, type ScopeOn } from "../resolve/index.js";
import type { RequestView } from "./request-view.js";
import type { Shelf } from "../shelf/index.js";

export interface Session {
  readonly mcp: McpServer;
  readonly view: RequestView;
  /** URIs the client subscribed to with `resources/subscribe` (2025 era). */
  readonly subscriptions: Set<string>;
}

export class SessionRegistry {
  private readonly sessions = new Set<Session>();

  add(session: Session): void {
    this.sessions.add(session);
  }

  /** A session that ended (an HTTP session deleted, timed out or evicted) hears nothing more. */
  remove(session: Session): void {
    this.sessions.delete(session);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Notifications failing (a client gone mid-send) must never break a rebuild: they are dropped. */
  async announce(previous: Shelf, next: Shelf): Promise<void> {
    const sends: Promise<void>[] = [];
    // Sessions of one scope share one diff: with many HTTP sessions the scopes in use are still few. A scope's key
    // is its spec's, on both shelves (a scope refused on one shelf has the same key for every spec there).
    const changes = new Map<string, ReturnType<typeof diffShelves>>();
    for (const session of this.sessions) {
      // A probe instance discarded by the stdio entry, or a closed connection, is forgotten.
      if (!session.mcp.isConnected()) {
        this.sessions.delete(session);
        continue;
      }
      const scopeOn = session.view.scopeOn;
      const key = `${scopeOn(previous).key}\n${scopeOn(next).key}`;
      const change = changes.get(key) ?? diffShelves(previous, next, scopeOn);
      changes.set(key, change);
      const server = session.mcp.server;
      if (change.listChanged) sends.push(server.sendResourceListChanged());
      if (change.promptsChanged) sends.push(server.sendPromptListChanged());
      for (const uri of session.subscriptions) {
        if (readKey(previous, scopeOn(previous), uri) !== readKey(next, scopeOn(next), uri))
          sends.push(server.sendResourceUpdated({ uri }));
      }
    }
    await Promise.allSettled(sends);
  }
}

/** HTTP (2026-07-28): the notifier reaches the listen streams of one scope, each filtered by its subscription
 *  filter; the diff is taken under that scope, so nothing outside it is ever announced. */
export function announceOverHttp(notify: ServerNotifier, previous: Shelf, next: Shelf, scopeOn: ScopeOn): void {
  const change = diffShelves(previous, next, scopeOn);
  if (change.listChanged) notify.resourcesChanged();
  if (change.promptsChanged) notify.promptsChanged();
  for (const uri of changedUris(previous, next, scopeOn)) notify.resourceUpdated(uri);
}
