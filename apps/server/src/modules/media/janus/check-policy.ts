import { findSecretKey } from './relay-policy.ts';

/**
 * What the lobby's connection check may ask of Janus through `/media?probe=1` (pure, like relay-policy): one session,
 * one handle on the echo plugin, one offer with data only, its ICE candidates, and goodbye. No room, no feed, no
 * other plugin: the check proves that a peer connection to this Janus gets through, nothing more.
 */
export const ECHOTEST = 'janus.plugin.echotest';
/** A check sends a dozen messages (create, attach, offer, candidates); more is not a check. */
export const MAX_CHECK_MESSAGES = 60;

export interface CheckState {
  sessionId: number | null;
  handleId: number | null;
  /** Transactions of create / attach awaiting Janus's answer, to learn the ids from it. */
  pending: Map<string, 'create' | 'attach'>;
  offers: number;
}

export const emptyCheckState = (): CheckState => ({ sessionId: null, handleId: null, pending: new Map(), offers: 0 });

export type CheckPolicyResult = { ok: true; message: Record<string, unknown> } | { ok: false; reason: string };

const refuse = (reason: string): CheckPolicyResult => ({ ok: false, reason });
const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

export function checkProbeMessage(raw: unknown, state: CheckState): CheckPolicyResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refuse('not a Janus message');
  const msg = raw as Record<string, unknown>;
  const tx = msg.transaction;
  if (typeof tx !== 'string' || tx.length < 1 || tx.length > 64) return refuse('missing transaction');
  const secret = findSecretKey(msg);
  if (secret) return refuse(`"${secret}" is not accepted from a browser`);
  const sessionOk = state.sessionId !== null && msg.session_id === state.sessionId;
  const handleOk = sessionOk && state.handleId !== null && msg.handle_id === state.handleId;
  switch (msg.janus) {
    case 'create':
      if (state.sessionId !== null || [...state.pending.values()].includes('create')) return refuse('one session');
      state.pending.set(tx, 'create');
      return { ok: true, message: pick(msg, ['janus', 'transaction']) };
    case 'attach':
      if (!sessionOk) return refuse('unknown session');
      if (msg.plugin !== ECHOTEST) return refuse('only the echo test');
      if (state.handleId !== null || [...state.pending.values()].includes('attach')) return refuse('one handle');
      state.pending.set(tx, 'attach');
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id', 'plugin']) };
    case 'keepalive':
    case 'destroy':
      if (!sessionOk) return refuse('unknown session');
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id']) };
    case 'detach':
    case 'hangup':
      if (!handleOk) return refuse('unknown handle');
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id', 'handle_id']) };
    case 'trickle':
      if (!handleOk) return refuse('unknown handle');
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id', 'handle_id', 'candidate', 'candidates']) };
    case 'message': {
      if (!handleOk) return refuse('unknown handle');
      const jsep = msg.jsep as { type?: unknown; sdp?: unknown } | undefined;
      if (!jsep || jsep.type !== 'offer' || typeof jsep.sdp !== 'string') return refuse('a check sends one offer');
      // A data channel only: no camera or microphone is needed to know whether the path works, and the echo
      // plugin's recording options never pass.
      if (/^m=(audio|video)/m.test(jsep.sdp)) return refuse('a check carries data only');
      if (++state.offers > 2) return refuse('too many offers');
      return { ok: true, message: { ...pick(msg, ['janus', 'transaction', 'session_id', 'handle_id']), body: { audio: false, video: false, data: true }, jsep: { type: 'offer', sdp: jsep.sdp } } };
    }
    default:
      return refuse(`"${String(msg.janus)}" is not allowed`);
  }
}

/** Learns the session and handle ids from Janus's answers to the check's create and attach. */
export function learnFromJanus(msg: Record<string, unknown>, state: CheckState): void {
  const tx = typeof msg.transaction === 'string' ? msg.transaction : null;
  const kind = tx ? state.pending.get(tx) : undefined;
  if (!kind || msg.janus === 'ack') return;
  state.pending.delete(tx!);
  const id = (msg.data as { id?: unknown } | undefined)?.id;
  if (msg.janus !== 'success' || typeof id !== 'number') return;
  if (kind === 'create') state.sessionId = id;
  else state.handleId = id;
}
