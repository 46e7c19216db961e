// GET /: a read-only page of the shelf and its health, for people. Every value is HTML-escaped.
import type { HealthReport } from "../health/index.js";
import { compareCodeUnits } from "../address/index.js";
import type { Shelf } from "../shelf/index.js";

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

export function renderShelfPage(shelf: Shelf, health: HealthReport): string {
  const libraries = [...shelf.libraries.values()].sort((a, b) => compareCodeUnits(a.name, b.name));
  const sections = libraries.map((library) => {
    const skills = [...library.skills.values()].sort((a, b) => compareCodeUnits(a.uri, b.uri));
    const rows = skills.map((skill) => `<li><code>${escapeHtml(skill.uri)}/SKILL.md</code> — ${escapeHtml(skill.description)}</li>`);
    return `<section><h2>${escapeHtml(library.name)}</h2><p>${escapeHtml(library.description)}</p><ul>${rows.join("")}</ul></section>`;
  });
  const problems = Object.entries(health.plugins).flatMap(([id, plugin]) => [
    ...(plugin.error === undefined ? [] : [`<li>${escapeHtml(id)}: ${escapeHtml(plugin.error)}</li>`]),
    ...(plugin.skipped ?? []).map(
      (row) => `<li>${escapeHtml(id)}: skipped <code>${escapeHtml(row.path)}</code> — ${escapeHtml(row.reason)}</li>`,
    ),
    ...(plugin.dangling ?? []).map(
      (row) =>
        `<li>${escapeHtml(id)}: <code>${escapeHtml(row.skill)}</code> cites <code>${escapeHtml(row.cites)}</code>, which is not served</li>`,
    ),
  ]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skillshelf</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{font-size:90%}</style></head>
<body><h1>skillshelf</h1>
<p>Status <strong>${escapeHtml(health.status)}</strong>, generation ${health.generation}, built ${escapeHtml(health.built)}: ${health.skills} skills, ${health.prompts} prompts.</p>
${sections.join("\n")}
<h2>Problems</h2>${problems.length === 0 ? "<p>None.</p>" : `<ul>${problems.join("")}</ul>`}
</body></html>
`;
}
