/**
 * The baseline of bench/chat-fanout.ts: bare `ws` in a process of its own, with no product around it. It accepts any
 * /chat/<id> socket, greets it with a WELCOME frame, and sends each chat message it receives to every connected socket
 * (encoded once, as the product does), in a frame the size of the product's (id, sender, name, text, time). No
 * sessions, validation, rate limits, persistence or Redis: what fanning out costs at the least, on this machine, in
 * this run. Prints one JSON line with its port (and as many empty tokens as BENCH_VISITORS, so the benchmark treats
 * it like a product node), and its CPU time on SIGUSR2, like bench/chat-fanout-server.ts.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const visitors = Number(process.env.BENCH_VISITORS ?? 250);
const sockets = new Set<WebSocket>();
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 64 * 1024 });
wss.on('connection', (socket) => {
  sockets.add(socket);
  const from = crypto.randomUUID();
  socket.on('close', () => sockets.delete(socket));
  socket.on('message', (raw) => {
    let message: { type?: string; data?: { data?: unknown } };
    try {
      message = JSON.parse(raw.toString()) as typeof message;
    } catch {
      return;
    }
    if (message.type !== 'CHAT_MESSAGE' || typeof message.data?.data !== 'string') return;
    // Encoded to bytes once, not once per socket (ws would encode a string on every send).
    const frame = Buffer.from(JSON.stringify({ type: 'CHAT_MESSAGE', data: { id: crypto.randomUUID(), from, displayName: 'Gäst 1', message: message.data.data, sentAt: new Date().toISOString() } }));
    for (const s of sockets) s.send(frame, { binary: false });
  });
  socket.send(JSON.stringify({ type: 'WELCOME', data: { connectionId: from } }));
});
await new Promise((resolve) => wss.once('listening', resolve));

process.stdout.write(`${JSON.stringify({ port: (wss.address() as AddressInfo).port, tokens: Array.from({ length: visitors }, () => '') })}\n`);
process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ cpu: process.cpuUsage() })}\n`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => wss.close(() => process.exit(0)));
