import { useState } from 'react';
import type { AppSettings, FeatureFlagKey, FeatureFlags } from '@videomote/contract/admin';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useQuery } from '../../../lib/use-query.ts';
import { getAppSettings } from '../api/get-app-settings.ts';
import { saveFlags } from '../api/save-flags.ts';
import { TableScroll } from '../components/table-scroll.tsx';

/** /admin/appsettings: the effective configuration (secrets masked by the server) and the feature switches. */
export function AppSettingsPage() {
  useDocumentTitle('Videomöte - AppSettings');
  const loaded = useQuery(['admin-appsettings'], (signal) => getAppSettings(signal));
  const settings: AppSettings | undefined = loaded.data;
  // The switches as edited (or as the save answered); the loaded ones until the first change.
  const [edited, setFlags] = useState<FeatureFlags | null>(null);
  const flags = edited ?? settings?.flags ?? null;
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  if (loaded.error) return <ErrorAlert message={loaded.error.message || 'Inställningarna kunde inte hämtas'} />;
  if (!settings || !flags) return <LoadingSpinner label="Hämtar inställningar..." />;

  const save = async () => {
    setBusy(true);
    try {
      const result = await saveFlags(flags);
      setFlags(result.flags);
      setMessage({ ok: true, text: 'Inställningarna är sparade.' });
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message || 'Inställningarna kunde inte sparas.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>AppSettings</h1>
      <h2>Funktioner</h2>
      {message && (
        <Alert variant={message.ok ? 'success' : 'error'} live={message.ok ? 'status' : 'alert'}>
          <p>{message.text}</p>
        </Alert>
      )}
      <fieldset className="ui-fieldset">
        <legend className="visually-hidden">Funktionsväxlar</legend>
        {(Object.keys(settings.flagTexts) as FeatureFlagKey[]).map((key) => (
          <div key={key} className="flag">
            <label className="choice">
              <input
                type="checkbox"
                role="switch"
                checked={flags[key]}
                aria-describedby={`flag-${key}-desc`}
                onChange={(e) => {
                  setMessage(null);
                  setFlags({ ...flags, [key]: e.target.checked });
                }}
              />{' '}
              {settings.flagTexts[key].label}
            </label>
            <p id={`flag-${key}-desc`} className="muted small">
              {settings.flagTexts[key].description}
            </p>
          </div>
        ))}
      </fieldset>
      <Button onClick={() => void save()} busy={busy}>
        Spara
      </Button>

      <h2>Gällande konfiguration</h2>
      <p>Konfigurationen sätts med miljövariabler när servern startar. Hemliga värden visas maskerade.</p>
      <TableScroll label="Gällande konfiguration">
        <table className="admin-table">
          <caption className="visually-hidden">Gällande konfiguration</caption>
          <thead>
            <tr>
              <th scope="col">Miljövariabel</th>
              <th scope="col">Värde</th>
              <th scope="col">Källa</th>
            </tr>
          </thead>
          <tbody>
            {settings.settings.map((s) => (
              <tr key={s.env}>
                <th scope="row">
                  <code>{s.env}</code>
                </th>
                <td className="break">
                  {s.value || <span className="muted">ej satt</span>}
                  {s.secret && <span className="visually-hidden"> (hemligt värde, maskerat)</span>}
                </td>
                <td>{s.source === 'env' ? 'Satt i miljön' : 'Standardvärde'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
