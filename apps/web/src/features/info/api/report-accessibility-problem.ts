import type { AccessibilityReportRequest } from '@videomote/contract/feedback';
import { api } from '../../../lib/api-client.ts';

/** Quiet: the form shows validation errors in place instead of leaving for /error. */
export const reportAccessibilityProblem = (report: AccessibilityReportRequest) =>
  api<{ id: string; createdAt: string }>('POST', 'api/feedback/accessibility', report, { quiet: true });
