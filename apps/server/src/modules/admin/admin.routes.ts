import type { FastifyInstance } from 'fastify';
import { Features, MembershipRoles } from '@videomote/contract/identity';
import { Envelope } from '@videomote/contract/envelope';
import {
  AppSettings,
  FEATURE_FLAG_TEXTS,
  FLAG_ERRORS,
  FeatureFlagKeys,
  FeatureFlags,
  FlagsAnswer,
  FlagsUpdate,
  GroupsResponse,
  MeetingErrorReceipt,
  MeetingErrorReport,
  RoleGrantsUpdate,
  TroubleshootQuery,
  TroubleshootResult,
} from '@videomote/contract/admin';
import { requireAdmin, requireUser } from '../../platform/auth.ts';
import { answers, typed } from '../../platform/typed-routes.ts';
import { validationError } from '../../platform/errors.ts';
import { isFlagKey, readFlags, writeFlags } from './feature-flags.ts';
import { listRoleGrants, saveRoleGrants } from './role-grants.ts';
import { effectiveSettings } from './app-settings.ts';
import { troubleshoot, type LiveProbes } from './troubleshoot.ts';
import { liveProbes } from './live-probes.ts';
import { reportClientError } from './meeting-errors.ts';

/**
 * Grupper, AppSettings and Felsökning: every /api/admin route here answers 403 to anyone but an administrator.
 * Two routes feed them from outside: the public feature flags, and the call errors browsers report for Felsökning.
 */
export async function adminRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { db } = app.deps;
  const groups = async (): Promise<GroupsResponse> => ({ grants: await listRoleGrants(db), roles: [...MembershipRoles], features: [...Features] });

  app.get('/api/admin/groups', { schema: { response: answers(GroupsResponse) } }, async (request) => {
    requireAdmin(request);
    return { data: await groups() };
  });

  app.put('/api/admin/groups', { schema: { body: Envelope(RoleGrantsUpdate), response: answers(GroupsResponse) } }, async (request) => {
    requireAdmin(request);
    await saveRoleGrants(db, request.body.data);
    return { data: await groups() };
  });

  app.get('/api/admin/appsettings', { schema: { response: answers(AppSettings) } }, async (request) => {
    requireAdmin(request);
    return { data: { settings: effectiveSettings(app.deps.config), flags: await readFlags(db), flagTexts: FEATURE_FLAG_TEXTS } };
  });

  app.put('/api/admin/appsettings/flags', { schema: { body: Envelope(FlagsUpdate), response: answers(FlagsAnswer) } }, async (request) => {
    requireAdmin(request);
    const unknown = Object.keys(request.body.data.flags).filter((k) => !isFlagKey(k));
    if (unknown.length) throw validationError(unknown.map((k) => ({ fields: [`flags.${k}`], message: FLAG_ERRORS.unknown })));
    await writeFlags(db, request.body.data.flags);
    return { data: { flags: await readFlags(db) } };
  });

  app.get('/api/admin/troubleshoot', { schema: { querystring: TroubleshootQuery, response: answers(TroubleshootResult) } }, async (request) => {
    requireAdmin(request);
    const probes: LiveProbes = liveProbes(app);
    return { data: await troubleshoot(db, app.deps.now(), request.query.q, probes) };
  });

  // Felsökning's client-reported errors: a participant (or a visitor of that webcast) of the meeting only, a code
  // from a fixed list and a short scrubbed text. A browser reports a handful per call; 20 a minute stops a loop.
  app.post(
    '/api/meetingerror',
    { schema: { body: Envelope(MeetingErrorReport), response: answers(MeetingErrorReceipt) }, config: { anonymousVisitor: true, rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request) => ({ data: await reportClientError(db, app.deps.now(), requireUser(request), request.body.data) }),
  );

  // Public and harmless: the web needs the switches (e.g. whether to offer the rating dialog) before login.
  app.get('/api/featureflags', { config: { anonymousVisitor: true }, schema: { response: answers(FeatureFlags) } }, async () => {
    const flags = await readFlags(db);
    return { data: Object.fromEntries(FeatureFlagKeys.map((k) => [k, flags[k]])) };
  });
}
