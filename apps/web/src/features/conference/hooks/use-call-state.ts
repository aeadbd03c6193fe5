import { useSyncExternalStore } from 'react';
import type { CallModel, CallState } from '../model/call-model.ts';

/** React only subscribes to the call model; all rules live in model/ and media/. */
export function useCallState(model: CallModel): CallState {
  return useSyncExternalStore(model.subscribe, model.getState, model.getState);
}
