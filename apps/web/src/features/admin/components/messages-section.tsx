import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { Outlet } from 'react-router';
import type { SystemMessage } from '@videomote/contract/messages';
import { LatestRequest } from '../../../lib/latest-request.ts';
import { getAllMessages } from '../api/get-all-messages.ts';

interface MessagesStore {
  messages: SystemMessage[] | null;
  loadError: string | null;
  load(): Promise<void>;
  clear(): void;
}

const Ctx = createContext<MessagesStore | null>(null);

/**
 * State of the system-message administration (booking spec §4): the list loads every message on entry and is
 * cleared on leaving; the form pages use a message already loaded and fetch it otherwise.
 */
export function MessagesSection() {
  const [messages, setMessages] = useState<SystemMessage[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  // The store is not a useQuery (the form pages read and change the loaded list), but follows its rule: only the
  // newest load's answer counts, and none after leaving the list.
  const latest = useRef(new LatestRequest());
  const load = useCallback(async () => {
    const request = latest.current.start();
    setLoadError(null);
    try {
      const list = await getAllMessages(request.signal);
      if (request.isCurrent()) setMessages(list);
    } catch (err) {
      if (request.isCurrent()) setLoadError(err instanceof Error ? err.message : 'Meddelandena kunde inte hämtas');
    }
  }, []);
  const clear = useCallback(() => {
    latest.current.cancel();
    setMessages(null);
  }, []);
  const value = useMemo(() => ({ messages, loadError, load, clear }), [messages, loadError, load, clear]);
  return (
    <Ctx.Provider value={value}>
      <Outlet />
    </Ctx.Provider>
  );
}

export function useMessagesStore(): MessagesStore {
  const v = useContext(Ctx);
  if (!v) throw new Error('useMessagesStore() must be used under <MessagesSection>');
  return v;
}
