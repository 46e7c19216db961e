// The usage view for admins (`/status/usage`): one table of usage at a time, paged, read through the viewer's scope
// from the usage store by the layer that mounts the page (`WebDeps.usage`). Non-admins get what /status gives them.
import { badRequest, type PageCall, queryText, send } from "./visit.js";
import { forAdminsView } from "./views/messages.js";
import { USAGE_TABLES, usageView } from "./views/usage.js";

/** Rows per page of a usage table. */
export const USAGE_ROWS = 50;

export async function usage(call: PageCall): Promise<void> {
  const { req, visit } = call;
  if (!visit.admin) return send(call.res, 403, visit, forAdminsView());
  const reader = call.context.deps.usage;
  const key = queryText(req, "table") ?? "mostRead7";
  const table = USAGE_TABLES.find((entry) => entry.key === key);
  if (table === undefined) return badRequest(call, `'table' must be one of ${USAGE_TABLES.map((entry) => entry.key).join(", ")}`);
  const asked = queryText(req, "page") ?? "1";
  if (!/^[1-9][0-9]{0,5}$/.test(asked)) return badRequest(call, "'page' must be a whole number from 1 up, e.g. ?page=2");
  const page = Number(asked);
  if (reader === undefined) return send(call.res, 200, visit, usageView({ table, state: { kind: "off" } }));
  // One row more than a page says whether another page follows.
  const answer = await reader.read(
    table.table,
    { days: table.days, limit: USAGE_ROWS + 1, offset: (page - 1) * USAGE_ROWS },
    visit.scopeOn,
  );
  if (!answer.ok) return send(call.res, answer.status, visit, usageView({ table, state: { kind: "refused", message: answer.message } }));
  if (answer.rows.length === 0 && page > 1) return badRequest(call, `There is no page ${page} of this table.`);
  const rows = answer.rows.slice(0, USAGE_ROWS);
  send(call.res, 200, visit, usageView({ table, state: { kind: "rows", rows, page, more: answer.rows.length > USAGE_ROWS } }));
}
