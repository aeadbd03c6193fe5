/**
 * The conference dispatches `rate-call` on `window` as the user leaves, and only then navigates to the shell,
 * where the dialog lives. So the listener is attached when this module loads (with the shell, at start-up), not
 * when the dialog mounts, and the request waits here until the dialog takes it.
 */
type Listener = () => void;

let pending: string | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l();
}

export function requestRating(meetingId: string): void {
  pending = meetingId;
  emit();
}

export function pendingRating(): string | null {
  return pending;
}

export function clearRatingRequest(): void {
  pending = null;
  emit();
}

export function subscribeRating(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function meetingIdOf(event: Event): string | null {
  const detail = (event as CustomEvent<{ meetingId?: unknown } | null>).detail;
  const id = detail && typeof detail === 'object' ? detail.meetingId : null;
  return typeof id === 'string' && id ? id : null;
}

if (typeof window !== 'undefined') {
  window.addEventListener('rate-call', (event) => {
    const id = meetingIdOf(event);
    if (id) requestRating(id);
  });
}
