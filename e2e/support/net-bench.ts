import type { Page } from 'playwright-core';
import { CallBench } from './call.ts';
import { SERVER_ADDRESS } from './client-netns.ts';
import { startServer } from './server.ts';

/** A call bench whose server listens on the address the client namespaces reach (support/client-netns.ts). */
export class NetBench extends CallBench {
  override async start(env: Record<string, string> = {}, options: { dataDir?: string; port?: number } = {}): Promise<void> {
    this.server = await startServer(env, { ...options, address: SERVER_ADDRESS });
  }
}

/** The local candidate type and relay protocol (e.g. `relay/tcp`) of the selected pair of each of the page's connections. */
export const selectedPaths = (p: Page): Promise<string[]> =>
  p.evaluate(async () => {
    const w = window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; pc: RTCPeerConnection }[] } } };
    const out: string[] = [];
    for (const pc of new Set(w.__videomoteTest.session.peerConnections().map((x) => x.pc))) {
      const stats: Record<string, { type: string; [k: string]: unknown }> = {};
      (await pc.getStats()).forEach((r: { id: string; type: string }) => (stats[r.id] = r));
      const transport = Object.values(stats).find((r) => r.type === 'transport');
      const pair = stats[String(transport?.selectedCandidatePairId)];
      const local = stats[String(pair?.localCandidateId)];
      out.push(`${String(local?.candidateType)}/${String(local?.relayProtocol)}`);
    }
    return out;
  });
