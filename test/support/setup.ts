// Run before every test file (vitest `setupFiles`), also when test files share one module graph: whatever a file
// made through the shared helpers is removed when that file's tests end.
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp.js";

afterAll(removeTempDirs);
