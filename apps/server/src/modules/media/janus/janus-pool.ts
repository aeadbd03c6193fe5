import { EventEmitter } from 'node:events';
import type { Config } from '../../../platform/config.ts';
import { JanusControl, type JanusInstanceInfo } from './janus-control.ts';
import { JanusSupervisor, type SupervisorLog } from './janus-supervisor.ts';

export const EMBEDDED_ID = 'embedded';

/**
 * The Janus instances this server may place rooms on: the embedded one it runs itself (JANUS_URL unset), or the
 * configured list. Emits 'restarted' with an instance id when that Janus lost its state (rooms must be recreated).
 */
export class JanusPool extends EventEmitter {
  readonly supervisor: JanusSupervisor | null;
  private readonly controls = new Map<string, JanusControl>();
  private readonly external: JanusInstanceInfo[];

  constructor(config: Config, log: SupervisorLog, env: NodeJS.ProcessEnv = process.env) {
    super();
    if (config.janusUrls.length) {
      // Operators of external instances configure the same secrets there (token_auth_secret and the VideoRoom
      // admin_key); they never leave the server.
      const tokenSecret = env.JANUS_TOKEN_SECRET ?? '';
      const roomAdminKey = env.JANUS_ADMIN_KEY ?? '';
      this.external = config.janusUrls.map((url) => ({ id: url, url, tokenSecret, roomAdminKey }));
      for (const info of this.external) this.controls.set(info.id, new JanusControl(info));
      this.supervisor = null;
    } else {
      this.external = [];
      this.supervisor = new JanusSupervisor({ dataDir: config.dataDir, iceEnforce: config.janusIceEnforce, rtpPortRange: config.janusRtpPortRange, log });
      this.supervisor.on('started', (j: { url: string; tokenSecret: string; roomAdminKey: string }) => {
        const info = { id: EMBEDDED_ID, url: j.url, tokenSecret: j.tokenSecret, roomAdminKey: j.roomAdminKey };
        const existing = this.controls.get(EMBEDDED_ID);
        if (existing) existing.reset(info);
        else this.controls.set(EMBEDDED_ID, new JanusControl(info));
        this.emit('restarted', EMBEDDED_ID);
      });
      this.supervisor.on('exit', () => {
        this.controls.get(EMBEDDED_ID)?.reset();
        this.emit('restarted', EMBEDDED_ID);
      });
    }
  }

  ids(): string[] {
    return this.supervisor ? [EMBEDDED_ID] : this.external.map((e) => e.id);
  }

  /** The control connection for an instance, starting the embedded Janus when needed. */
  async get(id: string): Promise<JanusControl> {
    if (this.supervisor) {
      await this.supervisor.ensureStarted();
      return this.controls.get(EMBEDDED_ID)!;
    }
    const control = this.controls.get(id);
    if (!control) throw new Error(`unknown janus instance ${id}`);
    return control;
  }

  /**
   * For /readyz. The embedded Janus counts as ready until its first use (it starts then); once used, it must be
   * running and answering (not dead, nor between restarts). A configured pool is ready while one instance answers:
   * the meetings of a dead one move to the others (see answers), so the node still serves every meeting.
   */
  async reachable(): Promise<boolean> {
    if (this.supervisor) {
      if (!this.supervisor.used) return true;
      if (this.supervisor.pid === null) return false;
      await (await this.get(EMBEDDED_ID)).roomExists(1);
      return true;
    }
    for (const id of this.ids()) if (await this.answers(id)) return true;
    return false;
  }

  /** Whether an instance answers a VideoRoom request now (a dead Janus refuses the connection at once). */
  async answers(id: string): Promise<boolean> {
    try {
      await (await this.get(id)).roomExists(1);
      return true;
    } catch {
      return false;
    }
  }

  /** The instance with the fewest rooms (loads: rooms per instance id), among `candidates` (default: all). */
  leastLoaded(loads: Map<string, number>, candidates: string[] = this.ids()): string {
    return leastLoaded(loads, candidates);
  }

  async close(): Promise<void> {
    for (const c of this.controls.values()) c.close();
    await this.supervisor?.stop();
  }
}

/** The instance with the fewest rooms (loads: rooms per instance id) among `candidates`; the first on a tie. */
export function leastLoaded(loads: Map<string, number>, candidates: string[]): string {
  return candidates.reduce((best, id) => ((loads.get(id) ?? 0) < (loads.get(best) ?? 0) ? id : best), candidates[0]!);
}
