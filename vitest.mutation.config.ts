// The tests a mutation run counts: the unit tests of the pure layers and the harvest, which build their inputs in
// the test body. The integration suites (http, mcp, live, scopes, cli, sources, replicas) start servers and
// processes and would make every mutant cost seconds; a score measured without them is a lower bound.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/{address,log,memo,config,prompts,harvest,shelf,resolve}/**/*.test.ts"],
    // Stryker runs tests in worker threads, where process.chdir() throws: the one test that changes directory is
    // left out of mutation runs (npm test still runs it).
    testNamePattern: /^(?!.*loadConfig on a missing file names the error code)/,
    // Trees a test makes live in a folder of the run's own, removed at its end even when a worker was stopped.
    globalSetup: ["test/support/mutation-tmp.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
