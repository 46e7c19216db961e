// YAML text → plain data, keeping the document so every error can name its JSON Pointer and line.
import { LineCounter, parseDocument, isAlias, isMap, isScalar, isSeq, type Document, type YAMLError } from "yaml";

/** A problem found before the schema: a path, an optional 1-based line, the rule. */
export interface Problem {
  readonly path: string;
  readonly line?: number;
  readonly rule: string;
}

export interface ParsedYaml {
  /** The document as plain data; meaningful only when `problems` is empty. */
  readonly data: unknown;
  readonly problems: readonly Problem[];
  /** The line where the value at a JSON Pointer starts (its key's line in a mapping); `undefined` for the root. */
  readonly lineOf: (pointer: string) => number | undefined;
}

type Range = readonly [number, number, number];
/** At most 100 alias expansions against alias bombs: yaml's default too, written out so a new default cannot lift it. */
const TO_JS = { maxAliasCount: 100 } as const;
/** The range of a node that has none (a parsed document gives every key and item one): it contains no offset. */
const NOWHERE: Range = [-1, -1, -1];
type Step = { readonly range: Range; readonly segment: string; readonly value: unknown };

/** `["plugins", 2, "skills"]` => `/plugins/2/skills`; `[]` => `/` (the root, written `/` for readability). */
export function formatPointer(segments: readonly (string | number)[]): string {
  if (segments.length === 0) return "/";
  return segments.map((s) => "/" + String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** `/plugins/2/skills` => `["plugins", "2", "skills"]`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "/" || pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

export function parseYaml(text: string): ParsedYaml {
  const counter = new LineCounter();
  // YAML 1.2 core schema; a repeated key is an error, not a silent last-one-wins.
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, lineCounter: counter });
  const line = (offset: number) => counter.linePos(offset).line;
  const lineOf = (pointer: string): number | undefined => {
    const steps = walk(doc, parsePointer(pointer));
    const last = steps[steps.length - 1];
    return last === undefined ? undefined : line(last.range[0]);
  };
  // Warnings (an unknown tag, …) count too: a config that changes meaning silently is worse than one refused.
  const found = [...doc.errors, ...doc.warnings].map((e) => yamlProblem(doc, e, line));
  if (found.length > 0) return { data: undefined, problems: found, lineOf };
  try {
    return { data: doc.toJS(TO_JS), problems: [], lineOf };
  } catch (e) {
    // An unresolved alias or an alias bomb (maxAliasCount guards against exponential expansion).
    return { data: undefined, problems: [{ path: "/", rule: `YAML: ${firstLine(e)}` }], lineOf };
  }
}

function yamlProblem(doc: Document, e: YAMLError, line: (offset: number) => number): Problem {
  const offset = e.pos[0];
  const path = formatPointer(pathAt(doc.contents, offset));
  if (e.code === "DUPLICATE_KEY") return { path, line: line(offset), rule: "duplicate key: a key may appear only once in a mapping" };
  // After a syntax error the tree is a guess, so only the line is trusted; a warning leaves the tree intact.
  const trusted = e.name === "YAMLWarning" ? path : "/";
  return { path: trusted, line: line(offset), rule: `YAML syntax error: ${firstLine(e)}` };
}

function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const lines = message.split("\n");
  // Stryker disable next-line StringLiteral: equivalent; split() always yields a first part.
  return lines[0] ?? "";
}

/** The nodes along a pointer, each with its range (a mapping entry's range starts at its key). */
function walk(doc: Document, segments: readonly string[]): Step[] {
  const steps: Step[] = [];
  let node: unknown = doc.contents;
  for (const segment of segments) {
    if (isAlias(node)) node = node.resolve(doc);
    let next: Step | undefined;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && String(pair.key.value) === segment && pair.key.range) {
          next = { range: pair.key.range, segment, value: pair.value };
        }
      }
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)];
      const range = rangeOf(item);
      if (range) next = { range, segment, value: item };
    }
    if (next === undefined) break;
    steps.push(next);
    node = next.value;
  }
  return steps;
}

/** The deepest path whose key or value contains `offset`. */
function pathAt(node: unknown, offset: number): string[] {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const keyRange = rangeOf(pair.key) ?? NOWHERE;
      if (contains(keyRange, offset)) return [key];
      // Between the key and the end of its value (a tag or anchor sits before the value's own range).
      const valueRange = rangeOf(pair.value);
      if (valueRange && keyRange[0] <= offset && offset < valueRange[2]) return [key, ...pathAt(pair.value, offset)];
    }
  } else if (isSeq(node)) {
    for (const [i, item] of node.items.entries()) {
      if (contains(rangeOf(item) ?? NOWHERE, offset)) return [String(i), ...pathAt(item, offset)];
    }
  }
  return [];
}

function rangeOf(node: unknown): Range | undefined {
  const range = (node as { range?: Range | null } | null | undefined)?.range;
  return range ?? undefined;
}

function contains(range: Range, offset: number): boolean {
  return range[0] <= offset && offset < Math.max(range[2], range[0] + 1);
}
