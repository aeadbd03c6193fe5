import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { mediaSocketUrl, readServerMessage, retireSocket, SessionEpoch, tappedWebSocket } from './media-socket.ts';

describe('the /media socket', () => {
  const address = { mediaBaseUrl: 'wss://host/media', meetingId: 'a b/c', token: 't&k=1', clientKey: 'key-1', attempt: 3, e2ee: true };

  it('names the meeting, the token and the connection key, escaped, and says e2ee=0 only for a browser that cannot encrypt', () => {
    expect(mediaSocketUrl(address)).toBe('wss://host/media/a%20b%2Fc?token=t%26k%3D1&client=key-1&a=3');
    expect(mediaSocketUrl({ ...address, e2ee: false })).toBe('wss://host/media/a%20b%2Fc?token=t%26k%3D1&client=key-1&a=3&e2ee=0');
  });

  it('makes a URL of its own for every attempt (the tap is looked up by it)', () => {
    expect(mediaSocketUrl({ ...address, attempt: 4 })).not.toBe(mediaSocketUrl(address));
  });

  it("reads our own messages and leaves janus.js's and broken frames alone", () => {
    expect(readServerMessage('{"videomote":"muteForced"}')).toEqual({ videomote: 'muteForced' });
    expect(readServerMessage('{"janus":"ack","transaction":"x"}')).toBeNull();
    expect(readServerMessage('not json')).toBeNull();
    expect(readServerMessage('null')).toBeNull();
    expect(readServerMessage('"videomote"')).toBeNull();
  });

  it('an epoch is live until it ends, and stays ended', () => {
    const epoch = new SessionEpoch(1);
    expect(epoch.live).toBe(true);
    epoch.end();
    epoch.end();
    expect(epoch.live).toBe(false);
  });

  it("keeps a replaced socket's close from janus.js, and its messages not", async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    server.on('connection', (peer) => peer.send('{"janus":"event"}'));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const Tapped = tappedWebSocket();
    // As janus.js does: a socket, then its listeners.
    const open = async () => {
      const ws = new Tapped(url);
      const heard: string[] = [];
      ws.addEventListener('message', () => heard.push('message'));
      ws.addEventListener('close', () => heard.push('close'));
      await once(ws, 'message');
      return { ws, heard };
    };
    const replaced = await open();
    const live = await open();
    retireSocket(replaced.ws);
    for (const peer of server.clients) peer.terminate();
    await Promise.all([once(replaced.ws, 'close'), once(live.ws, 'close')]);
    expect(replaced.heard).toEqual(['message']);
    expect(live.heard).toEqual(['message', 'close']);
    server.close();
  });
});
