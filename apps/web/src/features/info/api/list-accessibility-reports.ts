import type { AccessibilityReport } from '@videomote/contract/feedback';
import { api } from '../../../lib/api-client.ts';

export const listAccessibilityReports = () => api<AccessibilityReport[]>('GET', 'api/feedback/accessibility');
