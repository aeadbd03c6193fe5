import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectionCheckResult } from '@videomote/contract/connection-check';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { reportConnectionCheck, startConnectionCheck } from '../api/connection-check.ts';
import { useTexts } from '../../../i18n/use-texts.ts';
import { runEchoProbe } from '../connection-check/echo-probe.ts';

type CheckState = { status: 'checking' } | { status: 'done'; result: ConnectionCheckResult } | { status: 'unavailable' };

/**
 * The network half of the lobby's device test: a test connection to the meeting's media server, then in plain
 * Swedish whether media flows directly, only through TURN or not at all, and what to do. The outcome is sent to the
 * server for the meeting's staff. The text sits in a status region, so a screen reader hears the outcome.
 */
export function ConnectionCheck({ meetingId }: { meetingId: string }) {
  const [state, setState] = useState<CheckState>({ status: 'checking' });
  const running = useRef<AbortController | null>(null);
  const { t } = useTexts();

  const run = useCallback(async () => {
    running.current?.abort();
    const controller = (running.current = new AbortController());
    setState({ status: 'checking' });
    try {
      const [config, start] = await Promise.all([loadClientConfig(), startConnectionCheck(meetingId, controller.signal)]);
      const result = await runEchoProbe({ mediaBaseUrl: config.mediaBaseUrl, meetingId, ...start, signal: controller.signal });
      if (controller.signal.aborted) return;
      setState({ status: 'done', result });
      void reportConnectionCheck(meetingId, result).catch(() => {});
    } catch {
      if (!controller.signal.aborted) setState({ status: 'unavailable' });
    }
  }, [meetingId]);

  useEffect(() => {
    void run();
    return () => running.current?.abort();
  }, [run]);

  const outcome =
    state.status !== 'done'
      ? null
      : state.result === 'direct'
        ? { summary: t('connectionCheck.directSummary'), advice: '' }
        : state.result === 'turn'
          ? { summary: t('connectionCheck.turnSummary'), advice: t('connectionCheck.turnAdvice') }
          : { summary: t('connectionCheck.failedSummary'), advice: t('connectionCheck.failedAdvice') };
  return (
    <div className="lobby-connection" data-check-result={state.status === 'done' ? state.result : state.status}>
      <h3>{t('connectionCheck.heading')}</h3>
      <div role="status" aria-busy={state.status === 'checking'}>
        {state.status === 'checking' && <p>{t('connectionCheck.checking')}</p>}
        {state.status === 'unavailable' && <p>{t('connectionCheck.unavailable')}</p>}
        {outcome && <p className="lobby-connection__summary">{outcome.summary}</p>}
        {outcome?.advice && <p>{outcome.advice}</p>}
      </div>
      {state.status !== 'checking' && (
        <button type="button" className="lobby-secondary" onClick={() => void run()}>
          {t('connectionCheck.retry')}
        </button>
      )}
    </div>
  );
}
