import type { Employee } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

// Cached per query (spec §7): typing back and forth does not ask again.
const cache = new Map<string, Promise<Employee[]>>();

export function searchEmployees(query: string): Promise<Employee[]> {
  const key = query.trim().toLowerCase();
  let hit = cache.get(key);
  if (!hit) {
    hit = api<Employee[]>('GET', `api/employee/${encodeURIComponent(key)}`);
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}
