// The small version of the replicas run, inside `npm test`: two replicas behind HAProxy agree byte for byte,
// accept each other's cursors, answer over TLS through HAProxy, and one of them restarts under load without a lost
// request. The full run (`npm run test:replicas`) also kills a replica under load.
import { replicasSuite } from "./suite.js";

replicasSuite({ replicas: 2, localSkills: 150, clients: 4, minSeconds: 0, roll: 1, drainSeconds: 3, kill: false });
