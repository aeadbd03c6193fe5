import { useState } from 'react';
import type { StatsGrouping, StatsRow } from '@videomote/contract/stats';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { DateTimeField } from '../../../components/ui/date-time-input.tsx';
import { dateTimeFormatError, normaliseDateTimeText } from '../../../components/ui/date-time-text.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useQuery } from '../../../lib/use-query.ts';
import { BarChart } from '../components/bar-chart.tsx';
import { getStats, statsCsvUrl, type StatsParams } from '../api/get-stats.ts';
import { todayStockholm } from '../stockholm-time.ts';
import { TableScroll } from '../components/table-scroll.tsx';

const daysBefore = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

const sum = (rows: StatsRow[], key: 'meetings' | 'webcasts' | 'participants' | 'webcastAudience' | 'ratings') => rows.reduce((a, r) => a + r[key], 0);
const mean = (v: number | null) => (v === null ? '–' : v.toLocaleString('sv-SE', { maximumFractionDigits: 2 }));

/**
 * /admin/statistik: anonymous daily aggregates (they outlive the meetings themselves) as charts, a table and a
 * CSV download.
 */
export function StatisticsPage() {
  useDocumentTitle('Videomöte - Statistik');
  const today = todayStockholm();
  const [form, setForm] = useState<StatsParams>({ from: daysBefore(today, 29), to: today, group: 'day' });
  // The range asked for last: only its answer is shown, however quickly 'Visa' is pressed again.
  const [shown, setShown] = useState<StatsParams>(form);
  const stats = useQuery(['admin-stats', shown.from, shown.to, shown.group], (signal) => getStats(shown, signal));
  const report = stats.data ?? null;
  const error = stats.error ? stats.error.message || 'Statistiken kunde inte hämtas' : null;
  const loading = stats.loading;
  const [dateErrors, setDateErrors] = useState<{ from?: string; to?: string }>({});
  const load = (p: StatsParams) => {
    if (p.from === shown.from && p.to === shown.to && p.group === shown.group) stats.reload();
    else setShown(p);
  };

  const rows = report?.rows ?? [];
  const periods = rows.map((r) => r.period);
  const unit = shown.group === 'week' ? 'vecka' : 'dag';

  return (
    <>
      <h1>Statistik</h1>
      <p>Anonym statistik per dag eller vecka. Ett möte räknas när det har avslutats; siffrorna finns kvar även när mötena har gallrats bort.</p>
      <form
        className="stats-filter"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const typed = { ...form, from: normaliseDateTimeText('date', form.from), to: normaliseDateTimeText('date', form.to) };
          const found = {
            from: typed.from.trim() ? (dateTimeFormatError('date', typed.from) ?? undefined) : 'Du behöver ange ett datum',
            to: typed.to.trim() ? (dateTimeFormatError('date', typed.to) ?? undefined) : 'Du behöver ange ett datum',
          };
          setForm(typed);
          setDateErrors(found);
          if (found.from) document.getElementById('stats-from')?.focus();
          else if (found.to) document.getElementById('stats-to')?.focus();
          else load(typed);
        }}
      >
        <DateTimeField label="Från" id="stats-from" kind="date" required error={dateErrors.from} value={form.from} onValueChange={(from) => setForm((f) => ({ ...f, from }))} />
        <DateTimeField label="Till" id="stats-to" kind="date" required error={dateErrors.to} value={form.to} onValueChange={(to) => setForm((f) => ({ ...f, to }))} />
        <div className="ui-field">
          <label className="ui-field__label" htmlFor="stats-group">
            Gruppera per
          </label>
          <select id="stats-group" className="ui-input" value={form.group} onChange={(e) => setForm({ ...form, group: e.target.value as StatsGrouping })}>
            <option value="day">Dag</option>
            <option value="week">Vecka</option>
          </select>
        </div>
        <Button type="submit" busy={loading}>
          Visa
        </Button>
      </form>
      <ErrorAlert message={error} />
      {loading && !report && <LoadingSpinner label="Hämtar statistik..." />}
      {report && (
        <>
          <p>
            <a href={statsCsvUrl(shown)} download className="ui-button ui-button--secondary">
              Ladda ner CSV
            </a>
          </p>
          <div className="stats-summary" role="status">
            Perioden {report.from} – {report.to}: {report.totals.meetings} möten, {report.totals.webcasts} webbsändningar,{' '}
            {report.totals.participants} deltagare, {report.totals.webcastAudience} i publiken, {report.totals.ratings} betyg
            {report.totals.averageRating !== null && ` (medel ${mean(report.totals.averageRating)})`}.
          </div>
          <div className="charts">
            <BarChart
              title={`Möten och webbsändningar per ${unit}`}
              periods={periods}
              series={[
                { label: 'Möten', values: rows.map((r) => r.meetings), className: 'series-1' },
                { label: 'Webbsändningar', values: rows.map((r) => r.webcasts), className: 'series-2' },
              ]}
              summary={`${sum(rows, 'meetings')} möten och ${sum(rows, 'webcasts')} webbsändningar under perioden.`}
            />
            <BarChart
              title={`Deltagare och publik per ${unit}`}
              periods={periods}
              series={[
                { label: 'Deltagare', values: rows.map((r) => r.participants), className: 'series-1' },
                { label: 'Publik i webbsändningar', values: rows.map((r) => r.webcastAudience), className: 'series-3' },
              ]}
              summary={`${sum(rows, 'participants')} deltagare och ${sum(rows, 'webcastAudience')} i publiken under perioden.`}
            />
            <BarChart
              title={`Medelbetyg per ${unit} (1–5)`}
              periods={periods}
              max={5}
              series={[{ label: 'Medelbetyg', values: rows.map((r) => r.averageRating), className: 'series-2' }]}
              summary={`${sum(rows, 'ratings')} betyg under perioden, medelbetyg ${mean(report.totals.averageRating)}.`}
            />
          </div>
          <TableScroll label={`Statistik per ${unit}`}>
            <table className="admin-table stats-table">
              <caption>Statistik per {unit}</caption>
              <thead>
                <tr>
                  <th scope="col">{shown.group === 'week' ? 'Vecka' : 'Datum'}</th>
                  <th scope="col">Möten</th>
                  <th scope="col">Webbsändningar</th>
                  <th scope="col">Deltagare</th>
                  <th scope="col">Publik i webbsändningar</th>
                  <th scope="col">Antal betyg</th>
                  <th scope="col">Medelbetyg</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.period}>
                    <th scope="row">{r.period}</th>
                    <td>{r.meetings}</td>
                    <td>{r.webcasts}</td>
                    <td>{r.participants}</td>
                    <td>{r.webcastAudience}</td>
                    <td>{r.ratings}</td>
                    <td>{mean(r.averageRating)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Totalt</th>
                  <td>{report.totals.meetings}</td>
                  <td>{report.totals.webcasts}</td>
                  <td>{report.totals.participants}</td>
                  <td>{report.totals.webcastAudience}</td>
                  <td>{report.totals.ratings}</td>
                  <td>{mean(report.totals.averageRating)}</td>
                </tr>
              </tfoot>
            </table>
          </TableScroll>
        </>
      )}
    </>
  );
}
