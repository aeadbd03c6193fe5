import type { FastifyInstance } from 'fastify';
import { runRetention, type RetentionHooks, type RetentionReport } from './retention.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    retention: RetentionHooks & { runNow(): Promise<RetentionReport> };
  }
}

/**
 * Schedules the retention job every `retentionIntervalSeconds` (0 = never; tests call runNow()) in every server
 * process; the advisory lock makes one of them do the work. Other modules push their hooks onto `app.retention`.
 */
export async function registerRetention(app: FastifyInstance): Promise<void> {
  const retention: FastifyInstance['retention'] = {
    beforeMeetingsPurged: [],
    // Live connections to a purged meeting (a tab left open overnight) close, on every process.
    afterMeetingsPurged: [(ids) => Promise.all(ids.map((meetingId) => app.deps.events.emit({ type: 'meetingDeleted', meetingId }))).then(() => undefined)],
    runNow: () => runRetention(app.deps.db, app.deps.now(), retention, {
        ratingCommentDays: app.deps.config.ratingCommentDays,
        accessibilityReportDays: app.deps.config.accessibilityReportDays,
      }),
  };
  app.decorate('retention', retention);

  const seconds = app.deps.config.retentionIntervalSeconds;
  if (!seconds) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    retention
      .runNow()
      .then((r) => {
        if (r.pinsCleared || r.meetingsPurged || r.ratingCommentsCleared || r.accessibilityReportsDeleted) app.log.info({ retention: r }, 'retention purge');
      })
      .catch((err) => app.log.error({ err }, 'retention job failed'))
      .finally(() => (running = false));
  }, seconds * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
