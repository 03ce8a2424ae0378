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

/** A forward proxy on loopback (CONNECT tunnels and absolute-form requests) that counts what it carried. */
export async function startLoopbackProxy(): Promise<{ url: string; tunnels: string[]; forwarded: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    forwarded.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, clientSocket: Socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  return { ...(await listenOnLoopback(server, sockets)), tunnels, forwarded };
}
