import type { AccessibilityReport } from '@videomote/contract/feedback';
import { api } from '../../../lib/api-client.ts';

export const listAccessibilityReports = (signal?: AbortSignal) => api<AccessibilityReport[]>('GET', 'api/feedback/accessibility', undefined, { signal });
