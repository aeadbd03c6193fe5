import { useEffect, useRef } from 'react';
import type { ErrorEntry } from '../model/call-model.ts';
import { CallErrorReporter } from '../model/error-reporting.ts';
import { reportCallError } from '../api/report-call-error.ts';

/** Sends the call's new errors to Felsökning; failing to report is never shown to the user. */
export function useErrorReporting(meetingId: string, errors: readonly ErrorEntry[]): void {
  const reporter = useRef<CallErrorReporter | null>(null);
  reporter.current ??= new CallErrorReporter();
  useEffect(() => {
    if (!meetingId) return;
    for (const r of reporter.current!.next(errors, Date.now())) void reportCallError(meetingId, r.code, r.message).catch(() => {});
  }, [meetingId, errors]);
}
