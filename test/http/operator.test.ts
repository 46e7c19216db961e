// §10 against a real server (the built CLI on port 0): /health and /reindex answer what the served OpenAPI
// document says they answer, and what the example shelf holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { loadOpenApi, type OpenApiDocument } from "../support/openapi.js";
import { EXAMPLE_CONFIG, killStragglers, startHttpServer, type ServerProcess } from "../support/process.js";

const BAD_NAME_REASON =
  'The name "Bad_Name" breaks the naming rule (1-64 characters of a-z, 0-9 and \'-\', no hyphen first or last, no \'--\'): character 1 ("B") is an upper-case letter. The nearest valid name is "bad-name".';
const FETCHES = ["./examples/engineering-kit", "./examples/writing-kit"];

describe("operator endpoints of the CLI's HTTP server", () => {
  let server: ServerProcess;
  let openapi: OpenApiDocument;

  beforeAll(async () => {
    server = await startHttpServer(["--config", EXAMPLE_CONFIG]);
    const response = await send(server.origin, { path: "/openapi.yaml" });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/yaml/);
    openapi = loadOpenApi(response.text);
  });
  afterAll(async () => {
    await server?.stop();
    killStragglers();
  });

  it("serves an OpenAPI 3.1 document for GET /health and POST /reindex", () => {
    expect(openapi.doc["openapi"]).toBe("3.1.0");
    expect(Object.keys(openapi.doc["paths"] as object).sort()).toEqual(["/health", "/reindex"]);
  });

  it("has schemas that refuse a body that is not a health report", () => {
    const validate = openapi.validator("get", "/health", "200");
    expect(validate({ status: "ok" })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it("answers GET /health with a body valid against the served schema, describing the example shelf", async () => {
    const response = await send(server.origin, { path: "/health" });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.text) as Record<string, unknown>;
    const validate = openapi.validator("get", "/health", "200");
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({
      status: "warnings",
      generation: 1,
      skills: 8,
      prompts: 4,
      libraries: {
        engineering: { description: "How we build and run software", plugins: ["eng-kit"], skills: 3, prompts: 1, files: 1 },
        writing: { description: "How we write for users", plugins: ["writing-kit"], skills: 2, prompts: 2, files: 0 },
        oncall: { description: "Everything tagged for the on-call rotation", plugins: ["eng-kit"], skills: 3, prompts: 1, files: 1 },
      },
      plugins: {
        "eng-kit": {
          status: "ok",
          fetch: "./examples/engineering-kit",
          root: "",
          category: "engineering",
          tags: ["review", "oncall"],
          libraries: ["engineering", "oncall"],
          skills: 3,
          prompts: 1,
          files: 1,
        },
        "writing-kit": {
          status: "ok",
          fetch: "./examples/writing-kit",
          category: "writing",
          tags: ["docs"],
          libraries: ["writing"],
          skills: 2,
          prompts: 2,
          files: 0,
          skipped: [{ path: "skills/Bad_Name", reason: BAD_NAME_REASON }],
        },
      },
    });
    expect(Object.keys(body["fetches"] as object).sort()).toEqual(FETCHES);
    for (const fetch of Object.values(body["fetches"] as Record<string, { status: string }>)) expect(fetch.status).toBe("ok");
    // Never an absolute path the operator did not write.
    expect(response.text).not.toContain(process.cwd());
  });

  it("answers POST /reindex with the health report plus the fetches rebuilt, valid against the served schema", async () => {
    const response = await send(server.origin, { method: "POST", path: "/reindex" });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.text) as Record<string, unknown>;
    const validate = openapi.validator("post", "/reindex", "200");
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect([...(body["rebuilt"] as string[])].sort()).toEqual(FETCHES);
    // Nothing changed on disk: the generation does not move.
    expect(body).toMatchObject({ status: "warnings", generation: 1, skills: 8, prompts: 4 });
  });

  it("serves the page for people at /, listing the libraries", async () => {
    const response = await send(server.origin, { path: "/" });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.text).toContain('<a href="/libraries/engineering">engineering</a>');
  });
});
