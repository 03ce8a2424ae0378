/**
 * A forward proxy on loopback for tests: CONNECT tunnels (https) and absolute-form requests (http), optionally
 * asking for Basic credentials with 407 as company proxies do. It records what it was asked, never answering
 * a credential back.
 */
import * as http from 'node:http';
import * as net from 'node:net';

export interface ProxyRequest {
  /** `CONNECT host:port`, or the absolute URL of a forwarded request. */
  readonly target: string;
  readonly tunnel: boolean;
  /** The Proxy-Authorization header as received (tests compare it; the proxy never sends it anywhere). */
  readonly authorization: string | undefined;
  readonly status: number;
}

export interface ForwardProxy {
  readonly url: string;
  readonly requests: ProxyRequest[];
  close(): Promise<void>;
}

/** Starts the proxy on `host` (default 127.0.0.1); with `credentials`, only those (Basic) get through. */
export async function startForwardProxy(options: { credentials?: { user: string; password: string }; host?: string } = {}): Promise<ForwardProxy> {
  const expected = options.credentials && `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`;
  const requests: ProxyRequest[] = [];
  const sockets = new Set<net.Socket>();
  const allowed = (authorization: string | undefined) => !expected || authorization === expected;
  const refusal = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="tests"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

  const server = http.createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    const ok = allowed(authorization);
    requests.push({ target: req.url ?? '', tunnel: false, authorization, status: ok ? 200 : 407 });
    if (!ok) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="tests"', connection: 'close' });
      res.end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const authorization = req.headers['proxy-authorization'];
    const ok = allowed(authorization);
    requests.push({ target: req.url ?? '', tunnel: true, authorization, status: ok ? 200 : 407 });
    client.on('error', () => client.destroy());
    if (!ok) {
      client.end(refusal);
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), host.replace(/^\[(.*)\]$/, '$1'), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
