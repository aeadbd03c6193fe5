/**
 * A synthetic participant's way in, as a person's browser goes (no test-only shortcut in the server): our login
 * start, the embedded test IdP's form (a persona's button, or a personnummer and a name), back to our callback with
 * a session cookie; then the anti-forgery token, and the lobby's request for the media token with its consent ticked.
 * A webcast visitor skips the login and the consent, as the public page does.
 */
import type { GetTokenData } from '@videomote/contract/media';

/** A persona's button, a personnummer and a name on the IdP's form, or a webcast's public access (no login). */
export type Login = { persona: string } | { pin: string; name: string; roles?: string } | { visitor: { roomId: string; displayName: string } };

/** Cookies of one origin, as a browser keeps them (name → value; attributes are not needed here). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      if (eq <= 0) continue;
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/;\s*max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

/** An HTTP client of one origin with a cookie jar, following redirects itself (so every hop's cookies are kept). */
export class Browserless {
  readonly jar = new CookieJar();

  /**
   * `headers`: sent with every request, e.g. the X-Forwarded-For a trusted reverse proxy adds (the server trusts a
   * proxy on loopback by default), so that many synthetic visitors count as many addresses, as they do in use.
   */
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
    cookies: Record<string, string> = {},
  ) {
    for (const [name, value] of Object.entries(cookies)) this.jar.set(name, value);
  }

  async request(path: string, init: { method?: string; body?: string; type?: string; headers?: Record<string, string> } = {}): Promise<{ res: Response; url: string }> {
    let url = new URL(path, this.base).toString();
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; hop < 12; hop++) {
      const res = await fetch(url, {
        method,
        body,
        redirect: 'manual',
        headers: { ...this.headers, cookie: this.jar.header(), origin: this.base, ...(init.type ? { 'content-type': init.type } : {}), ...(init.headers ?? {}) },
      });
      this.jar.take(res);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { res, url };
      await res.arrayBuffer();
      url = new URL(location, url).toString();
      // A 303 (and a browser's 302 after a POST) continues as GET without a body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete init.type;
      }
    }
    throw new Error(`too many redirects from ${path}`);
  }

  /** A call to our API as the web app makes it: `{ data }` bodies and the anti-forgery header. */
  async api<T>(method: string, path: string, data?: unknown): Promise<{ status: number; body: T }> {
    if (method !== 'GET' && !this.jar.get('XSRF-TOKEN')) await (await this.request('/api/getantiforgerydata')).res.arrayBuffer();
    const xsrf = decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '');
    const { res } = await this.request(path, {
      method,
      body: data === undefined ? undefined : JSON.stringify({ data }),
      type: data === undefined ? undefined : 'application/json',
      headers: { 'x-xsrf-token': xsrf },
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /** Logs in through the embedded test IdP, as loginAs / loginWithPin do with a page (e2e/support/login.ts). */
  async login(who: Login): Promise<void> {
    if ('visitor' in who) return this.publicAccess(who.visitor.roomId, who.visitor.displayName);
    const { res, url } = await this.request(`/api/login/start?returnUrl=${encodeURIComponent('/meetings')}`);
    const page = await res.text();
    const action = /<form method="post" action="([^"]+\/login)"/.exec(page)?.[1];
    if (!action) throw new Error(`no IdP login form at ${url} (${res.status})`);
    const form: Record<string, string> = 'persona' in who ? { persona: who.persona } : { form: 'pin', pin: who.pin, name: who.name, roles: who.roles ?? '' };
    const done = await this.request(new URL(action.replace(/&amp;/g, '&'), url).toString(), {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      type: 'application/x-www-form-urlencoded',
    });
    await done.res.arrayBuffer();
    if (!new URL(done.url).pathname.startsWith('/meetings')) throw new Error(`login ended at ${done.url} (${done.res.status})`);
  }

  /** A webcast's public page: the visitor's name for an anonymous session of that webcast (no IdP, no lobby). */
  async publicAccess(roomId: string, displayName: string): Promise<void> {
    const { status, body } = await this.api('POST', `/api/publicaccess/${encodeURIComponent(roomId)}`, { displayName });
    if (status !== 200) throw new Error(`public access answered ${status}: ${JSON.stringify(body)}`);
  }

  /**
   * The lobby's request for the media token with the consent box ticked (one request, as the lobby sends it), or a
   * webcast visitor's plain request. Throws the server's answer when it refuses.
   */
  async mediaToken(meetingId: string, options: { displayName?: string; consent?: boolean } = {}): Promise<GetTokenData> {
    const consent = options.consent ?? true;
    const { status, body } = await this.api<{ data: GetTokenData }>('POST', '/api/meeting/gettoken', {
      meetingId,
      ...(options.displayName === undefined ? {} : { displayName: options.displayName }),
      ...(consent ? { consent: true } : {}),
    });
    if (status !== 200) throw new Error(`gettoken answered ${status}: ${JSON.stringify(body)}`);
    return body.data;
  }
}
