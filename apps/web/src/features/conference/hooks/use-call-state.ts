import { startTransition, useEffect, useState } from 'react';
import type { CallModel, CallState } from '../model/call-model.ts';

/**
 * React only subscribes to the call model; all rules live in model/ and media/.
 *
 * The screen follows the model in transitions, not synchronously (as useSyncExternalStore would): while a call is
 * joining, the model changes with nearly every signalling message, and a synchronous render of the whole call
 * screen after each (50-300 ms on a busy phone or in the media bench) held every next message, ICE step and key
 * frame behind it. A transition render yields to them every few ms, and changes that come close together are shown
 * in one render. The page is the model's only reader, so nothing on screen can show two states of it at once.
 */
export function useCallState(model: CallModel): CallState {
  const [state, setState] = useState(model.getState);
  useEffect(() => {
    const follow = () => startTransition(() => setState(model.getState()));
    follow(); // what changed between the first render and this subscription
    return model.subscribe(follow);
  }, [model]);
  return state;
}
