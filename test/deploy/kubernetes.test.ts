// The Kubernetes manifests without a cluster: every manifest is validated against the Kubernetes OpenAPI schemas
// (kubernetes-models ships them compiled by ajv) and type-checked against the same API's TypeScript types, so an
// unknown or misspelt field fails too (the OpenAPI schemas allow extra fields); the kustomization names every
// manifest; the Deployment agrees with the image and the config; and the config in the ConfigMap passes
// `skillshelf check` against a git server holding the pinned commit, with the credential the Secret would hold.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { Deployment } from "kubernetes-models/apps/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { REPO_ROOT, assertBuilt, runCli } from "../support/process.js";
import { startGitHttpServer, type GitHttpServer } from "../sources/git-http-server.js";
import { EXAMPLE_COMMIT, makeExampleRepo } from "./example-repo.js";

const DIR = path.join(REPO_ROOT, "deploy", "kubernetes");

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

/** Each model validates with the ajv-compiled OpenAPI schema of its kind; the type names its TypeScript interface. */
const KINDS: Record<string, { model: new (data: never) => { validate(): void }; module: string; type: string }> = {
  "apps/v1 Deployment": { model: Deployment, module: "kubernetes-models/apps/v1/Deployment", type: "IDeployment" },
  "v1 ConfigMap": { model: ConfigMap, module: "kubernetes-models/v1/ConfigMap", type: "IConfigMap" },
  "v1 Secret": { model: Secret, module: "kubernetes-models/v1/Secret", type: "ISecret" },
  "v1 Service": { model: Service, module: "kubernetes-models/v1/Service", type: "IService" },
  "policy/v1 PodDisruptionBudget": {
    model: PodDisruptionBudget,
    module: "kubernetes-models/policy/v1/PodDisruptionBudget",
    type: "IPodDisruptionBudget",
  },
};

function manifestFiles(): string[] {
  return fs
    .readdirSync(DIR)
    .filter((name) => name.endsWith(".yaml") && name !== "kustomization.yaml")
    .sort();
}

function load(file: string): Manifest {
  const docs = parseAllDocuments(fs.readFileSync(path.join(DIR, file), "utf8"));
  expect(docs.length, file).toBe(1);
  expect(docs[0]!.errors, file).toEqual([]);
  return docs[0]!.toJS() as Manifest;
}

function schemaErrors(manifest: Manifest): string | undefined {
  const kind = KINDS[`${manifest.apiVersion} ${manifest.kind}`];
  if (kind === undefined) return `no schema for ${manifest.apiVersion} ${manifest.kind}`;
  try {
    new kind.model(manifest as never).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Type-check each manifest as an object literal of its kind's interface: excess-property checks reject unknown keys. */
function typeErrors(manifests: readonly Manifest[]): string[] {
  const files = new Map<string, string>();
  manifests.forEach((manifest, i) => {
    const kind = KINDS[`${manifest.apiVersion} ${manifest.kind}`]!;
    files.set(
      path.join(REPO_ROOT, "test", "deploy", `__manifest_${i}.ts`),
      `import type { ${kind.type} } from "${kind.module}";\nexport const manifest: ${kind.type} = ${JSON.stringify(manifest, null, 2)};\n`,
    );
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    files.has(name) ? ts.createSourceFile(name, files.get(name)!, language) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe("every manifest", () => {
  test("is one document of a known kind that validates against the Kubernetes OpenAPI schema", () => {
    const files = manifestFiles();
    expect(files).toEqual(["configmap.yaml", "deployment.yaml", "poddisruptionbudget.yaml", "secret.example.yaml", "service.yaml"]);
    for (const file of files) expect(schemaErrors(load(file)), file).toBeUndefined();
  });

  test("type-checks against the Kubernetes API types, with no unknown field", () => {
    expect(typeErrors(manifestFiles().map(load))).toEqual([]);
  });

  test("the checks do fail: a bad quantity fails the schema, a misspelt field fails the types", () => {
    type Containers = { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    const containerOf = (manifest: Manifest): Record<string, unknown> =>
      (manifest as unknown as Containers).spec.template.spec.containers[0]!;
    const badQuantity = load("deployment.yaml");
    (containerOf(badQuantity).resources as { limits: Record<string, string> }).limits.memory = "512 MiB";
    expect(schemaErrors(badQuantity)).toContain("resources/limits/memory must match format");
    const misspelt = load("deployment.yaml");
    containerOf(misspelt).readinesProbe = containerOf(misspelt).readinessProbe;
    delete containerOf(misspelt).readinessProbe;
    expect(schemaErrors(misspelt)).toBeUndefined();
    expect(typeErrors([misspelt])).toEqual([
      `__manifest_0.ts: Object literal may only specify known properties, and '"readinesProbe"' does not exist in type 'IContainer'.`,
    ]);
  });
});

describe("the kustomization and the Deployment", () => {
  const kustomization = parse(fs.readFileSync(path.join(DIR, "kustomization.yaml"), "utf8")) as {
    apiVersion: string;
    kind: string;
    resources: string[];
    images: { name: string; newName: string; newTag: string }[];
  };
  const deployment = load("deployment.yaml") as Manifest & {
    spec: {
      replicas: number;
      selector: { matchLabels: Record<string, string> };
      template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
    };
  };
  interface Probe {
    httpGet: { path: string; port: string };
  }
  interface PodSpec {
    securityContext: Record<string, unknown>;
    containers: {
      image: string;
      ports: { name: string; containerPort: number }[];
      env: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
      livenessProbe: Probe;
      readinessProbe: Probe;
      startupProbe: Probe;
      resources: { requests: Record<string, string>; limits: Record<string, string> };
      securityContext: Record<string, unknown>;
      volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
    }[];
    volumes: { name: string; configMap?: { name: string }; emptyDir?: Record<string, string> }[];
  }
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0]!;
  const env = (name: string): string | undefined => container.env.find((e) => e.name === name)?.value;

  test("the kustomization applies every manifest but the Secret's example, and sets the image", () => {
    expect(kustomization.apiVersion).toBe("kustomize.config.k8s.io/v1beta1");
    expect(kustomization.kind).toBe("Kustomization");
    expect([...kustomization.resources].sort()).toEqual(manifestFiles().filter((f) => f !== "secret.example.yaml"));
    expect(kustomization.images.map((i) => i.name)).toEqual([container.image]);
  });

  test("probes, security, volumes and ports agree with the image", () => {
    const dockerfile = fs.readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8");
    expect(pod.containers.length).toBe(1);
    expect(container.livenessProbe.httpGet).toEqual({ path: "/livez", port: "http" });
    expect(container.startupProbe.httpGet).toEqual({ path: "/livez", port: "http" });
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container.ports).toEqual([{ name: "http", containerPort: Number(env("SKILLSHELF_PORT")), protocol: "TCP" }]);
    expect(dockerfile).toContain(`EXPOSE ${env("SKILLSHELF_PORT")}\n`);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001 });
    expect(dockerfile).toContain("USER 10001:10001\n");
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ["ALL"] },
    });
    expect(container.volumeMounts).toEqual(
      [
        { name: "config", mountPath: path.dirname(env("SKILLSHELF_CONFIG")!), readOnly: true },
        { name: "cache", mountPath: env("SKILLSHELF_CACHE_DIR"), readOnly: undefined },
        { name: "tmp", mountPath: "/tmp", readOnly: undefined },
      ].map((m) => JSON.parse(JSON.stringify(m)) as object),
    );
    expect(pod.volumes).toEqual([
      { name: "config", configMap: { name: "skillshelf-config" } },
      { name: "cache", emptyDir: { sizeLimit: "1Gi" } },
      { name: "tmp", emptyDir: { sizeLimit: "64Mi" } },
    ]);
    expect(path.basename(env("SKILLSHELF_CONFIG")!)).toBe("config.yaml");
    expect(Object.keys((load("configmap.yaml") as Manifest & { data: Record<string, string> }).data)).toEqual(["config.yaml"]);
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    for (const file of ["service.yaml", "poddisruptionbudget.yaml"]) {
      const selector = (load(file) as Manifest & { spec: { selector: Record<string, unknown> } }).spec.selector;
      expect(selector.matchLabels ?? selector, file).toEqual(deployment.spec.selector.matchLabels);
    }
  });

  test("every credential the config names comes from the Secret, by reference", () => {
    const config = (load("configmap.yaml") as Manifest & { data: Record<string, string> }).data["config.yaml"]!;
    const named = [...config.matchAll(/\{env: ([A-Z_]+)\}/g)].map((m) => m[1]!).sort();
    expect(named).toEqual(["GIT_TOKEN", "SKILLSHELF_AGENTS_TOKEN", "SKILLSHELF_OPERATORS_TOKEN"]);
    const fromSecret = container.env.filter((e) => e.valueFrom !== undefined);
    expect(fromSecret.map((e) => e.name).sort()).toEqual(named);
    const secret = load("secret.example.yaml") as Manifest & { stringData: Record<string, string> };
    for (const e of fromSecret) {
      expect(e.valueFrom!.secretKeyRef.name).toBe(secret.metadata.name);
      expect(Object.keys(secret.stringData)).toContain(e.valueFrom!.secretKeyRef.key);
    }
  });
});

describe("the config in the ConfigMap", () => {
  let base: string;
  let server: GitHttpServer;
  const TOKEN = "example-git-token-0123456789";

  beforeAll(async () => {
    assertBuilt();
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-k8s-")));
    // github://example-org/agent-skills, served by a local smart-HTTP git server that wants the Secret's token.
    expect(makeExampleRepo(path.join(base, "git", "example-org", "agent-skills"))).toBe(EXAMPLE_COMMIT);
    server = await startGitHttpServer(path.join(base, "git"), "x-access-token", TOKEN);
  });

  afterAll(async () => {
    await server?.close();
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  test("passes `skillshelf check` with the git host's URL pointed at a server holding the pinned commit", async () => {
    const config = (load("configmap.yaml") as Manifest & { data: Record<string, string> }).data["config.yaml"]!;
    expect(config).toContain("url: git+https://github.com\n");
    expect(config.match(new RegExp(`\\?ref=${EXAMPLE_COMMIT}\\n`, "g"))?.length).toBe(2);
    const file = path.join(base, "config.yaml");
    fs.writeFileSync(file, config.replace("url: git+https://github.com\n", `url: git+${server.url}\n`));
    const args = ["check", "--json", "--config", file, "--cache-dir", path.join(base, "cache")];
    const env = { SKILLSHELF_AGENTS_TOKEN: "a", SKILLSHELF_OPERATORS_TOKEN: "o" };
    const result = await runCli(args, { cwd: base, env: { ...env, GIT_TOKEN: TOKEN } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { status: string; skills: number; fetches: Record<string, { status: string }> };
    expect(report.status).toBe("ok");
    expect(report.skills).toBe(3);
    expect(Object.entries(report.fetches).map(([key, f]) => [key, f.status])).toEqual([
      [`github://example-org/agent-skills?ref=${EXAMPLE_COMMIT}`, "ok"],
    ]);
    // Without the Secret's token the git host refuses, and check says so.
    const fresh = ["check", "--config", file, "--cache-dir", path.join(base, "cache-2")];
    const refused = await runCli(fresh, { cwd: base, env: { ...env, GIT_TOKEN: "not-the-token" } });
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toContain("the git host refused the credentials");
  });
});
