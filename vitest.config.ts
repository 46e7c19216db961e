import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Removes what each test file made through the shared helpers once its tests end (also without isolation).
    setupFiles: ["test/support/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files share one module graph per worker instead of importing the server, the SDK and express again for
    // each of ~160 files: on 2 cores that import was most of the run (41 unit files: 68 s isolated, 13 s not).
    // Nothing a file changes outlives it: no module mocks, spies restored, fake timers reset, every temporary
    // directory removed after its file (test/support/setup.ts).
    isolate: false,
    // vitest's default is one worker per core but one (a single worker on 2 cores), while most of this suite waits
    // on child processes, sockets and file events rather than computing.
    maxWorkers: 2,
  },
});
