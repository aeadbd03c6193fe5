import { api } from '../../../lib/api-client.ts';

/** `GET api/login/keepalive`: keeps the session alive while on the meeting screen (spec §4, every 30 s). */
export const keepAlive = () => api<unknown>('GET', 'api/login/keepalive', undefined, { quiet: true });
