// Slow clients are cut off: headers not complete within the headers timeout, or a request (body included) not
// complete within the request timeout, get 408 and their connection closed; a fast request on the same server is
// served. The bounds the server runs with are the documented ones.
import net from "node:net";
import type { Server } from "node:http";
import { afterEach, expect, test } from "vitest";
import { HEADERS_TIMEOUT_MS, listen, REQUEST_TIMEOUT_MS } from "../../src/http/index.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Everything the server sends on a raw connection until it closes it. */
function rawExchange(port: number, write: (socket: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => write(socket));
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
    socket.once("close", () => resolve(received));
    socket.once("error", reject);
  });
}

const echo = (port: number): Promise<string> =>
  rawExchange(port, (socket) => socket.end("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));

test("the server runs with a 10 s headers timeout and a 30 s request timeout", async () => {
  server = await listen((_req, res) => res.end("ok"), "127.0.0.1", 0);
  expect([server.headersTimeout, server.requestTimeout, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS]).toEqual([10_000, 30_000, 10_000, 30_000]);
});

test("headers that never end, and a body that never ends, get 408 and a closed connection", async () => {
  server = await listen(
    (req, res) => {
      req.resume();
      req.once("end", () => res.end("ok"));
    },
    "127.0.0.1",
    0,
    { headersMs: 200, requestMs: 400 },
  );
  const port = (server.address() as net.AddressInfo).port;
  // Headers trickle in and never end.
  const slowHeaders = rawExchange(port, (socket) => socket.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  // Headers complete, the body promised and never sent.
  const slowBody = rawExchange(port, (socket) => socket.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\npartial"));
  expect((await echo(port)).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
  expect((await slowHeaders).split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
  expect((await slowBody).split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
});
