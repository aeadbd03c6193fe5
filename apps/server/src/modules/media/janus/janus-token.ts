import crypto from 'node:crypto';

/**
 * Janus's own signed tokens (token_auth with token_auth_secret): `<expiry>,janus,<plugins>:<base64 HMAC-SHA1>`.
 * Only the server holds the secret; browsers never see these tokens (the relay adds them to each request).
 */
export function signJanusToken(secret: string, expiresAtSeconds: number, plugins: string[] = ['janus.plugin.videoroom']): string {
  const data = `${Math.floor(expiresAtSeconds)},janus,${plugins.join(',')}`;
  const signature = crypto.createHmac('sha1', secret).update(data).digest('base64');
  return `${data}:${signature}`;
}
