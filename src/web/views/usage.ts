// The usage view for admins: a list of the tables and one of them, paged by previous/next links (the page does not
// count the rows it does not show). A pure function of the rows it is given.
import { html, type Html } from "../html.js";
import { type PageView, renderTable } from "./parts.js";

export type UsageTableName = "mostRead" | "neverRead" | "byClient" | "zeroResultSearches" | "unfollowedSearches" | "prompts";

export interface UsageTable {
  /** The `?table=` of the page. */
  readonly key: string;
  readonly table: UsageTableName;
  readonly days: number;
  readonly title: string;
  /** Column heads and the row field each shows. */
  readonly columns: readonly (readonly [string, string])[];
}

const SKILL_COLUMNS = [
  ["Library", "library"],
  ["Skill", "skill"],
  ["Reads", "reads"],
  ["SKILL.md reads", "skillMdReads"],
  ["Clients", "clients"],
] as const;

export const USAGE_TABLES: readonly UsageTable[] = [
  { key: "mostRead7", table: "mostRead", days: 7, title: "Most read, last 7 days", columns: SKILL_COLUMNS },
  { key: "mostRead30", table: "mostRead", days: 30, title: "Most read, last 30 days", columns: SKILL_COLUMNS },
  {
    key: "neverRead",
    table: "neverRead",
    days: 1,
    title: "Never read since they were added",
    columns: [
      ["Library", "library"],
      ["Skill", "skill"],
    ],
  },
  {
    key: "byClient",
    table: "byClient",
    days: 30,
    title: "Reads by client, last 30 days",
    columns: [
      ["Client", "client"],
      ["Surface", "surface"],
      ["Reads", "reads"],
      ["Skills", "skills"],
    ],
  },
  {
    key: "zeroResultSearches",
    table: "zeroResultSearches",
    days: 30,
    title: "Searches that found nothing, last 30 days",
    columns: [
      ["Query", "query"],
      ["Searches", "searches"],
      ["Found nothing", "zeroResults"],
      ["Clients", "clients"],
    ],
  },
  {
    key: "unfollowedSearches",
    table: "unfollowedSearches",
    days: 30,
    title: "Searches never followed by a read, last 30 days",
    columns: [
      ["Query", "query"],
      ["Searches", "searches"],
      ["Never followed", "unfollowed"],
      ["Clients", "clients"],
    ],
  },
  {
    key: "prompts",
    table: "prompts",
    days: 30,
    title: "Prompts rendered, last 30 days",
    columns: [
      ["Library", "library"],
      ["Prompt", "prompt"],
      ["Rendered", "fetches"],
      ["Clients", "clients"],
    ],
  },
];

export type UsageState =
  | { readonly kind: "off" }
  | { readonly kind: "refused"; readonly message: string }
  | {
      readonly kind: "rows";
      readonly rows: readonly Readonly<Record<string, string | number>>[];
      readonly page: number;
      readonly more: boolean;
    };

export interface UsageData {
  readonly table: UsageTable;
  readonly state: UsageState;
}

const tableHref = (key: string, page = 1): string => `/status/usage?table=${key}${page > 1 ? `&page=${page}` : ""}`;

function renderRows(table: UsageTable, state: Extract<UsageState, { kind: "rows" }>): Html {
  if (state.rows.length === 0) return html`<p>No rows.</p>`;
  const rows = state.rows.map(
    (row) =>
      html`<tr>
        ${table.columns.map(([, field]) => html`<td>${String(row[field] ?? "")}</td>`)}
      </tr>`,
  );
  const pager =
    state.page > 1 || state.more
      ? html`<nav class="pager" aria-label="Pages">
          ${state.page > 1 ? html`<a href="${tableHref(table.key, state.page - 1)}" rel="prev">Previous page</a>` : ""}
          <span>Page ${state.page}</span>
          ${state.more ? html`<a href="${tableHref(table.key, state.page + 1)}" rel="next">Next page</a>` : ""}
        </nav>`
      : "";
  return html`${renderTable({ caption: table.title, hiddenCaption: true, columns: table.columns.map(([head]) => head), rows })} ${pager}`;
}

export function usageView(data: UsageData): PageView {
  const { table, state } = data;
  const nav = USAGE_TABLES.map((entry) =>
    entry.key === table.key
      ? html`<li><strong aria-current="page">${entry.title}</strong></li>`
      : html`<li><a href="${tableHref(entry.key)}">${entry.title}</a></li>`,
  );
  const content =
    state.kind === "off"
      ? html`<p>Usage counting is off: the config has no <code>usage</code> section.</p>`
      : state.kind === "refused"
        ? html`<p>${state.message}</p>`
        : renderRows(table, state);
  const body = html`<h1>Usage</h1>
    <p>What your scope sees of the usage counts. The same tables answer <code>GET /usage</code> as JSON or CSV.</p>
    <ul>
      ${nav}
    </ul>
    <h2>${table.title}</h2>
    ${content}`;
  return {
    title: `Usage: ${table.title}`,
    crumbs: [{ label: "Libraries", href: "/" }, { label: "Health", href: "/status" }, { label: "Usage" }],
    body,
  };
}
