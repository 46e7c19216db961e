// One line of text for a row: whitespace folded, and a long text cut after its last whole word with an ellipsis.
// The harvest cuts an over-long description with it, and every index, listing and search row does the same.

/** At most `max` code points, cut after the last whole word that fits and ended with `…`. */
export function cutAtWord(text: string, max: number): string {
  const points = [...text];
  if (points.length <= max) return text;
  const head = points.slice(0, max - 1).join("");
  const space = head.search(/\s\S*$/);
  return `${(space > 0 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** Newlines and whitespace runs become one space, then the line is cut to `max` code points:
 *  `a\n  b ` => `a b`. */
export function formatOneLine(text: string, max = Number.POSITIVE_INFINITY): string {
  return cutAtWord(text.replace(/\s+/g, " ").trim(), max);
}
