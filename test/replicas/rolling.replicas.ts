// The replicas run (`npm run test:replicas`): three replicas behind HAProxy agree byte for byte and accept each
// other's cursors, and a rolling restart of all three (SIGTERM, not ready, drained by HAProxy, exit 0, started
// again) under 20 concurrent clients over at least 30 s loses no request, and neither does a replica killed with
// SIGKILL under the same load. SKILLSHELF_REPLICAS_REPORT names a file for the run's figures.
import { replicasSuite } from "./suite.js";

replicasSuite({
  replicas: 3,
  localSkills: 250,
  clients: 20,
  minSeconds: 30,
  roll: 3,
  kill: true,
  ...(process.env.SKILLSHELF_REPLICAS_REPORT ? { reportFile: process.env.SKILLSHELF_REPLICAS_REPORT } : {}),
});
