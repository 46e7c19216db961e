// Sealing a text under a key (AES-256-GCM), for what the server hands out or stores and alone can read. Pure.
export { seal, unseal } from "./seal.js";
