import type { AccessibilityReport } from '@videomote/contract/feedback';
import type { Db } from '../../platform/db.ts';

interface Row {
  id: string;
  description: string;
  page_url: string | null;
  contact: string | null;
  reporter_kind: string;
  created_at: Date | string;
}

export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  async insert(report: Omit<AccessibilityReport, 'id' | 'createdAt'>, createdAt: Date): Promise<AccessibilityReport> {
    const [row] = await this.db.query<Row>(
      `INSERT INTO accessibility_reports (description, page_url, contact, reporter_kind, created_at) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, description, page_url, contact, reporter_kind, created_at`,
      [report.description, report.pageUrl, report.contact, report.reporterKind, createdAt],
    );
    return toReport(row!);
  }

  async list(limit: number): Promise<AccessibilityReport[]> {
    const rows = await this.db.query<Row>(
      'SELECT id, description, page_url, contact, reporter_kind, created_at FROM accessibility_reports ORDER BY created_at DESC, id LIMIT $1',
      [limit],
    );
    return rows.map(toReport);
  }
}

const toReport = (r: Row): AccessibilityReport => ({
  id: r.id,
  description: r.description,
  pageUrl: r.page_url,
  contact: r.contact,
  reporterKind: r.reporter_kind,
  createdAt: new Date(r.created_at).toISOString(),
});
