// How the builder's passes report a broken rule: at a place in the document (JSON Pointer segments), in a sentence
// of rules.ts. A pass reports every problem it finds and goes on; a config with any problem is never used.
import { RULE } from "./rules.js";
import { formatPointer } from "./yaml-doc.js";

/** Segments of a JSON Pointer: `["plugins", 2, "skills", 0]` is `/plugins/2/skills/0`. */
export type Where = readonly (string | number)[];
export type Report = (at: Where, rule: string) => void;

/** Each name of `items` once in `list`: a second one is reported at its name, pointing at the first. */
export function checkUnique(items: readonly { readonly name: string }[], list: string, what: string, report: Report): void {
  const first = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const at = first.get(item.name);
    if (at === undefined) first.set(item.name, i);
    else report([list, i, "name"], RULE.duplicateName(what, item.name, formatPointer([list, at])));
  }
}
