import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { UpstreamWarmer, WARM_FOR_MS } from './upstream-warmer.ts';

// A real WebSocket server on loopback stands in for Janus's transport: what is tested is sockets opened ahead.
describe('UpstreamWarmer', () => {
  let server: WebSocketServer;
  let url: string;
  let accepted: WebSocket[];
  /** Each server-side socket's client port, to tell which client socket it belongs to. */
  let ports: Map<WebSocket, number | undefined>;
  let clock: number;
  let warmer: UpstreamWarmer;

  beforeEach(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'janus-protocol' });
    await once(server, 'listening');
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    accepted = [];
    ports = new Map();
    server.on('connection', (ws, request) => {
      accepted.push(ws);
      ports.set(ws, request.socket.remotePort);
    });
    clock = 0;
    warmer = new UpstreamWarmer(undefined, () => clock);
  });
  afterEach(async () => {
    warmer.close();
    for (const ws of accepted) ws.terminate();
    await new Promise((r) => server.close(r));
  });

  const opened = async (ws: WebSocket) => {
    if (ws.readyState !== WebSocket.OPEN) await once(ws, 'open');
    return ws;
  };
  const localPort = (ws: WebSocket) => (ws as unknown as { _socket?: { localPort?: number } })._socket?.localPort;
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(check()).toBe(true);
  };

  it('hands out a socket already open after the first, and opens the next one at once', async () => {
    const first = await opened(warmer.take(url));
    expect(first.protocol).toBe('janus-protocol');
    await until(() => accepted.length === 2); // the first, and one made ready for the next connection
    const second = warmer.take(url);
    expect(second.readyState).toBe(WebSocket.OPEN);
    expect(second).not.toBe(first);
    await until(() => accepted.length === 3);
    // What the taker sends reaches the server.
    const got = new Promise<string>((resolve) => accepted.forEach((ws) => ws.once('message', (m) => resolve(String(m)))));
    second.send('{"janus":"create"}');
    expect(await got).toBe('{"janus":"create"}');
  });

  it('does not hand out an idle socket that closed, nor one kept longer than it is trusted', async () => {
    const inUse = await opened(warmer.take(url));
    await until(() => accepted.length === 2);
    // Janus closes the idle one (restarted, say): every server side but the one in use.
    const idle = accepted.filter((ws) => ports.get(ws) !== localPort(inUse));
    expect(idle).toHaveLength(1);
    idle[0]!.close();
    await new Promise((r) => setTimeout(r, 50));
    const afterClose = warmer.take(url);
    expect(afterClose.readyState).toBe(WebSocket.CONNECTING); // not the closed one: a new one
    await opened(afterClose);
    await until(() => accepted.length === 4);
    // The one made ready since is now too old to trust: closed, and a new one is opened.
    clock += WARM_FOR_MS;
    const fresh = warmer.take(url);
    expect(fresh.readyState).toBe(WebSocket.CONNECTING);
    await opened(fresh);
    await until(() => accepted.filter((ws) => ws.readyState === WebSocket.CLOSED).length === 2);
  });

  it('closes its idle sockets when the server stops', async () => {
    const inUse = await opened(warmer.take(url));
    await until(() => accepted.length === 2);
    const idle = accepted.find((ws) => ports.get(ws) !== localPort(inUse))!;
    const closed = once(idle, 'close');
    warmer.close();
    await closed;
    expect(inUse.readyState).toBe(WebSocket.OPEN);
  });
});
