// The container's HEALTHCHECK: GET /livez on the port the server listens on (SKILLSHELF_PORT, else 8000).
// Exit 0 when it answers 200, 1 otherwise (no answer within 4 s, a refused connection, any other status).
const port = process.env.SKILLSHELF_PORT ?? "8000";
try {
  const response = await fetch(`http://127.0.0.1:${port}/livez`, { signal: AbortSignal.timeout(4000) });
  process.exitCode = response.status === 200 ? 0 : 1;
} catch {
  process.exitCode = 1;
}
