import type { FastifyInstance } from 'fastify';
import { StatsQuery, StatsResponse } from '@videomote/contract/stats';
import { requireAdmin } from '../../platform/auth.ts';
import { answers, file, typed } from '../../platform/typed-routes.ts';
import { recordEndedMeetings, recordMeetingsBeforePurge, statsReport, statsCsv } from './stats.service.ts';

/** Statistik for admins, plus the recording: a periodic sweep of ended meetings and a hook in the retention job. */
export async function statsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { db } = app.deps;
  // Meetings about to be purged are counted inside the purge transaction, so no held meeting escapes the figures.
  app.retention?.beforeMeetingsPurged.push(recordMeetingsBeforePurge);

  let sweeping: Promise<unknown> | null = null;
  const sweep = () => {
    sweeping ??= recordEndedMeetings(db, app.deps.now())
      .catch((err) => app.log.error({ err }, 'statistics sweep failed'))
      .finally(() => (sweeping = null));
    return sweeping;
  };
  const seconds = app.deps.config.retentionIntervalSeconds;
  if (seconds) {
    const timer = setInterval(() => void sweep(), seconds * 1000);
    timer.unref();
    app.addHook('onReady', async () => void sweep());
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sweeping;
    });
  }

  app.get('/api/admin/stats', { schema: { querystring: StatsQuery, response: answers(StatsResponse) } }, async (request) => {
    requireAdmin(request);
    await sweep();
    return { data: await statsReport(db, app.deps.now(), request.query) };
  });

  app.get('/api/admin/stats.csv', { schema: { querystring: StatsQuery, response: file('text/csv', 'The statistics as CSV (semicolon-separated, for spreadsheets)') } }, async (request, reply) => {
    requireAdmin(request);
    await sweep();
    const report = await statsReport(db, app.deps.now(), request.query);
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="videomote-statistik-${report.from}-${report.to}.csv"`)
      .header('cache-control', 'no-store');
    return statsCsv(report);
  });
}
