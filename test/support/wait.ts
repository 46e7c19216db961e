// Waiting for something a test cannot be told about directly (a log line, a file the server wrote, a count on
// /health): poll the condition, and fail with what was awaited after a generous bound. The bound is never a timing
// assertion — a condition that holds returns at the next poll — so no test sleeps a fixed time to prove a thing.

/** Polls `condition` every `everyMs` until it holds; fails naming `what` (a text, or a function of the state so far)
 *  once `boundMs` has passed. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string) = "the condition",
  boundMs = 15_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** `waitFor` with the awaited thing named first, as a sentence reads: `until("the reload", () => …)`. */
export function until(what: string, condition: () => boolean | Promise<boolean>, boundMs = 15_000): Promise<void> {
  return waitFor(condition, what, boundMs);
}
