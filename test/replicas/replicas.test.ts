// The small version of the replicas run, inside `npm test`: two replicas behind HAProxy agree byte for byte,
// accept each other's cursors, and one of them restarts under load without a lost request.
import { replicasSuite } from "./suite.js";

replicasSuite({ replicas: 2, localSkills: 150, clients: 4, minSeconds: 0, roll: 1, drainSeconds: 3 });
