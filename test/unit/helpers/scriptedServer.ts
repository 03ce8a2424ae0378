import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as net from 'node:net';

/** Listens on a random loopback port; close() also ends open (e.g. tunnelled) sockets. */
async function listenOnLoopback(server: http.Server, extra: Set<Socket> = new Set()): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...sockets, ...extra]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A real HTTP server on loopback whose answers a test scripts, for the cases
 * the stand-in should not learn (a malformed record, a key echoed back, odd
 * offsets, a path prefix).
 */
export async function startScriptedServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  return { ...(await listenOnLoopback(server)), seen };
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A loopback server that writes whatever bytes a test gives it as the whole
 * answer (status line, headers, body), for answers node's HTTP server would
 * refuse to send: control characters in headers, 6 KB content types, bodies
 * that contradict their headers. One answer per connection, then it closes.
 */
export async function startRawServer(
  answer: (request: RawRequest) => Buffer | string,
): Promise<{ url: string; seen: RawRequest[]; close(): Promise<void> }> {
  const seen: RawRequest[] = [];
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [requestLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffered.length < end + 4 + length) return;
      answered = true;
      const [method, url] = requestLine.split(' ');
      const request = { method, url, headers, body: buffered.subarray(end + 4, end + 4 + length).toString('utf8') };
      seen.push(request);
      let bytes: Buffer | string;
      try {
        bytes = answer(request);
      } catch {
        socket.destroy();
        return;
      }
      socket.end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP/1.1 answer as bytes; adds content-length and `connection: close`. */
export function rawAnswer(status: number, headers: Array<[string, string]>, body: Buffer | string): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const head =
    `HTTP/1.1 ${status} X\r\n` +
    headers.map(([name, value]) => `${name}: ${value}\r\n`).join('') +
    `content-length: ${payload.length}\r\nconnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/**
 * A scripted server that, like uvicorn or node, drops idle keep-alive
 * connections after `idleMs`, but without saying so (no `Keep-Alive`
 * header) and abruptly: a request that arrives on a connection idle longer
 * than that is answered with a reset.
 */
export async function startIdleResettingServer(
  idleMs: number,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; seen: SeenRequest[]; resets: number; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const idleSince = new WeakMap<Socket, number>();
  const state = { resets: 0 };
  const server = http.createServer((req, res) => {
    const socket = req.socket;
    const since = idleSince.get(socket);
    if (since !== undefined && Date.now() - since > idleMs) {
      state.resets++;
      socket.resetAndDestroy();
      return;
    }
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.on('finish', () => idleSince.set(socket, Date.now()));
    handler(req, res);
  });
  // 0: node neither sends a Keep-Alive header nor closes idle connections itself; the reset above does.
  server.keepAliveTimeout = 0;
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    seen,
    get resets() {
      return state.resets;
    },
  };
}
