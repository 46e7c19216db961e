// The resolver names directories with its own constant (the pure core does not import the protocol SDK); the SDK's
// Skills extension defines the same media type and id. They must agree, or hosts would not see directories.
import { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION_ID } from "@modelcontextprotocol/server/ext/skills";
import { describe, expect, test } from "vitest";
import { DIRECTORY_TYPE } from "../../src/resolve/index.js";

describe("the Skills extension's vocabulary", () => {
  test("the resolver's directory media type is the extension's", () => {
    expect(DIRECTORY_TYPE).toBe(DIRECTORY_MIME_TYPE);
    expect(DIRECTORY_TYPE).toBe("inode/directory");
  });

  test("the extension id the capability is declared under", () => {
    expect(SKILLS_EXTENSION_ID).toBe("io.modelcontextprotocol/skills");
  });
});
