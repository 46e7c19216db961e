// The form that asks for a prompt's missing arguments, and which arguments are missing, without a connection.
import { expect, test } from "vitest";
import { missingArguments } from "../../src/prompts/index.js";
import { answeredArguments, formatArgumentsRequest } from "../../src/mcp/prompts.js";
import { defineFor } from "../prompts/helpers.js";

const def = defineFor(
  "prompts/trio.md",
  "---\narguments: [{name: a, description: The first, required: true}, {name: b, required: true}, {name: c, description: '', required: true}, {name: d, default: x, required: true}, {name: e}]\n---\n{{a}}{{b}}{{c}}{{d}}{{e}}",
);

test("missing: required, not given (absent, null or empty), no default; none when an unknown argument is given", () => {
  expect(missingArguments(def, {}).map((arg) => arg.name)).toEqual(["a", "b", "c"]);
  expect(missingArguments(def, { a: "1", b: null, c: "" }).map((arg) => arg.name)).toEqual(["b", "c"]);
  expect(missingArguments(def, { a: "1", b: "2", c: "3" })).toEqual([]);
  expect(missingArguments(def, { z: "1" })).toEqual([]);
});

test("one string property per missing argument, described when it has a description, all required", () => {
  expect(formatArgumentsRequest("kit_trio", missingArguments(def, {}))).toEqual({
    message: "The kit_trio prompt needs a, b and c.",
    requestedSchema: {
      type: "object",
      properties: { a: { type: "string", description: "The first" }, b: { type: "string" }, c: { type: "string" } },
      required: ["a", "b", "c"],
    },
  });
  expect(formatArgumentsRequest("kit_trio", [{ name: "b" }, { name: "c" }]).message).toBe("The kit_trio prompt needs b and c.");
});

test("an answer gives only the string values of the arguments asked for", () => {
  expect(answeredArguments({ a: "1", b: 2, e: "extra", ["__proto__"]: "x" }, ["a", "b"])).toEqual({ a: "1" });
  expect(answeredArguments(undefined, ["a"])).toEqual({});
});
