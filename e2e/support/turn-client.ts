import crypto from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';

/**
 * A minimal TURN client (RFC 8656, and RFC 6062's Connect for TCP relays) for probing what coturn relays where:
 * Allocate with long-term credentials, CreatePermission, Send indications, Connect. Only what the relay tests need;
 * browsers are the real clients.
 */
const MAGIC = 0x2112a442;
const METHOD = { allocate: 0x003, createPermission: 0x008, send: 0x006, connect: 0x00a } as const;
const ATTR = { username: 0x0006, messageIntegrity: 0x0008, errorCode: 0x0009, realm: 0x0014, nonce: 0x0015, requestedTransport: 0x0019, xorPeerAddress: 0x0012, data: 0x0013 } as const;
const CLASS = { request: 0x0000, indication: 0x0010, success: 0x0100, error: 0x0110 } as const;

interface Attr {
  type: number;
  value: Buffer;
}

function encode(method: number, cls: number, attrs: Attr[], key?: Buffer): Buffer {
  const body = attrs.map((a) => {
    const padded = Buffer.alloc(4 + Math.ceil(a.value.length / 4) * 4);
    padded.writeUInt16BE(a.type, 0);
    padded.writeUInt16BE(a.value.length, 2);
    a.value.copy(padded, 4);
    return padded;
  });
  const header = Buffer.alloc(20);
  header.writeUInt16BE(method | cls, 0);
  header.writeUInt32BE(MAGIC, 4);
  crypto.randomBytes(12).copy(header, 8);
  let message = Buffer.concat([header, ...body]);
  if (key) {
    // MESSAGE-INTEGRITY: HMAC-SHA1 over the message with its length already counting this attribute.
    message.writeUInt16BE(message.length - 20 + 24, 2);
    const mac = crypto.createHmac('sha1', key).update(message).digest();
    message = Buffer.concat([message, Buffer.from([0x00, 0x08, 0x00, 0x14]), mac]);
  }
  message.writeUInt16BE(message.length - 20, 2);
  return message;
}

interface Decoded {
  cls: number;
  method: number;
  transaction: string;
  attrs: Map<number, Buffer>;
}

function decode(b: Buffer): Decoded {
  const type = b.readUInt16BE(0);
  const attrs = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= 20 + b.readUInt16BE(2); ) {
    const t = b.readUInt16BE(at);
    const len = b.readUInt16BE(at + 2);
    attrs.set(t, b.subarray(at + 4, at + 4 + len));
    at += 4 + Math.ceil(len / 4) * 4;
  }
  return { cls: type & 0x0110, method: type & ~0x0110 & 0x3fff, transaction: b.subarray(8, 20).toString('hex'), attrs };
}

function xorPeer(address: string, port: number): Attr {
  const v = Buffer.alloc(8);
  v.writeUInt16BE(0x0001, 0);
  v.writeUInt16BE(port ^ (MAGIC >>> 16), 2);
  const ip = address.split('.').map(Number);
  v.writeUInt32BE((((ip[0]! << 24) | (ip[1]! << 16) | (ip[2]! << 8) | ip[3]!) ^ MAGIC) >>> 0, 4);
  return { type: ATTR.xorPeerAddress, value: v };
}

/** The outcome of a request: success, or coturn's error code (e.g. 403 Forbidden, 442 Unsupported Transport). */
export type TurnAnswer = { ok: true } | { ok: false; code: number; reason: string };

function answerOf(d: Decoded): TurnAnswer {
  if (d.cls === CLASS.success) return { ok: true };
  const e = d.attrs.get(ATTR.errorCode);
  return e ? { ok: false, code: (e[2]! & 0x07) * 100 + e[3]!, reason: e.subarray(4).toString('utf8') } : { ok: false, code: 0, reason: 'no error code' };
}

/** One transport to coturn: datagrams over UDP, or STUN messages framed by their own length over TCP. */
interface Wire {
  send(b: Buffer): void;
  onMessage(fn: (b: Buffer) => void): void;
  close(): void;
}

async function udpWire(server: string, port: number): Promise<Wire> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, resolve));
  return { send: (b) => s.send(b, port, server), onMessage: (fn) => s.on('message', fn), close: () => s.close() };
}

async function tcpWire(server: string, port: number): Promise<Wire> {
  const s = net.connect(port, server);
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  let pending = Buffer.alloc(0);
  const listeners: ((b: Buffer) => void)[] = [];
  s.on('data', (d) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= 20 && pending.length >= 20 + pending.readUInt16BE(2)) {
      const n = 20 + pending.readUInt16BE(2);
      const message = pending.subarray(0, n);
      pending = pending.subarray(n);
      for (const fn of listeners) fn(message);
    }
  });
  s.on('error', () => {});
  return { send: (b) => s.write(b), onMessage: (fn) => listeners.push(fn), close: () => s.destroy() };
}

export interface TurnSession {
  /** Allocate a relay (UDP, or TCP per RFC 6062) with the credentials, answering the result. */
  allocate(transport: 'udp' | 'tcp'): Promise<TurnAnswer>;
  createPermission(peer: string): Promise<TurnAnswer>;
  /** A Send indication: coturn relays `data` from the allocation to the peer (no answer comes back). */
  sendTo(peer: string, port: number, data: Buffer): void;
  /** RFC 6062 Connect: ask coturn to open a TCP connection from a TCP allocation to the peer. */
  connect(peer: string, port: number): Promise<TurnAnswer>;
  close(): void;
}

/** A control connection to coturn at `server` (UDP or TCP) with REST credentials (username/password). */
export async function turnSession(server: string, over: 'udp' | 'tcp', username: string, password: string, port = 3478): Promise<TurnSession> {
  const wire = over === 'udp' ? await udpWire(server, port) : await tcpWire(server, port);
  const waiting = new Map<string, (d: Decoded) => void>();
  wire.onMessage((b) => {
    const d = decode(b);
    waiting.get(d.transaction)?.(d);
  });
  let realm = '';
  let nonce = '';
  let key: Buffer | undefined;
  const request = (method: number, attrs: Attr[]): Promise<Decoded> => {
    const auth: Attr[] = key ? [{ type: ATTR.username, value: Buffer.from(username) }, { type: ATTR.realm, value: Buffer.from(realm) }, { type: ATTR.nonce, value: Buffer.from(nonce) }] : [];
    const message = encode(method, CLASS.request, [...attrs, ...auth], key);
    const transaction = message.subarray(8, 20).toString('hex');
    return new Promise<Decoded>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(transaction);
        reject(new Error(`TURN request ${method} got no answer`));
      }, 5_000);
      waiting.set(transaction, (d) => {
        clearTimeout(timer);
        waiting.delete(transaction);
        resolve(d);
      });
      wire.send(message);
    });
  };
  /** Long-term credentials: the first answer is 401 with the realm and nonce; then every request carries them. */
  const authed = async (method: number, attrs: Attr[]): Promise<TurnAnswer> => {
    let d = await request(method, attrs);
    const a = answerOf(d);
    if (!a.ok && (a.code === 401 || a.code === 438)) {
      realm = d.attrs.get(ATTR.realm)?.toString('utf8') ?? realm;
      nonce = d.attrs.get(ATTR.nonce)?.toString('utf8') ?? nonce;
      key = crypto.createHash('md5').update(`${username}:${realm}:${password}`).digest();
      d = await request(method, attrs);
    }
    return answerOf(d);
  };
  return {
    allocate: (transport) => authed(METHOD.allocate, [{ type: ATTR.requestedTransport, value: Buffer.from([transport === 'udp' ? 17 : 6, 0, 0, 0]) }]),
    createPermission: (peer) => authed(METHOD.createPermission, [xorPeer(peer, 0)]),
    sendTo: (peer, p, data) => wire.send(encode(METHOD.send, CLASS.indication, [xorPeer(peer, p), { type: ATTR.data, value: data }])),
    connect: (peer, p) => authed(METHOD.connect, [xorPeer(peer, p)]),
    close: () => wire.close(),
  };
}
