import { defineConfig } from "vitest/config";

// `npm run test:replicas`: the replicas run behind HAProxy, kept out of `npm test` (it loads for 30 s and more).
export default defineConfig({
  test: {
    include: ["test/replicas/*.replicas.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
