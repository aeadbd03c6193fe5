import type { FastifyInstance } from 'fastify';
import { StatsQuery, type StatsQuery as StatsQueryT } from '@videomote/contract/stats';
import { requireAdmin } from '../../platform/auth.ts';
import { recordEndedMeetings, recordMeetingsBeforePurge, statsReport, statsCsv } from './stats.service.ts';

/** Statistik for admins, plus the recording: a periodic sweep of ended meetings and a hook in the retention job. */
export async function statsRoutes(app: FastifyInstance): Promise<void> {
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

  app.get<{ Querystring: StatsQueryT }>('/api/admin/stats', { schema: { querystring: StatsQuery } }, async (request) => {
    requireAdmin(request);
    await sweep();
    return { data: await statsReport(db, app.deps.now(), request.query) };
  });

  app.get<{ Querystring: StatsQueryT }>('/api/admin/stats.csv', { schema: { querystring: StatsQuery } }, async (request, reply) => {
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
