import { useState } from 'react';
import type { ErrorItem } from '@videomote/contract/errors';
import type { RoleGrant } from '@videomote/contract/admin';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useQuery } from '../../../lib/use-query.ts';
import { ErrorList } from '../components/error-list.tsx';
import { getGroups } from '../api/get-groups.ts';
import { saveGroups } from '../api/save-groups.ts';
import { TableScroll } from '../components/table-scroll.tsx';

const ROLE_TEXT: Record<string, string> = {
  Participant: 'Extern användare (e-legitimation)',
  VIDAdmin: 'Administratör',
  KompletterandeAktör: 'KA-användare',
  FriståendeAktör: 'MSFA-användare',
  VIDMedarbetare: 'Medarbetare',
};

const FEATURE_TEXT: Record<string, string> = {
  EditMeeting: 'Boka och ändra möten',
  InternalMeeting: 'Interna möten',
  ScreenShare: 'Dela skärm',
};

/** /admin/groups: which identity role grants which features and admin; saved edits apply at the next login. */
export function GroupsPage() {
  useDocumentTitle('Videomöte - Grupper');
  const groups = useQuery(['admin-groups'], (signal) => getGroups(signal));
  // The admin's edits since the load (or the saved answer); the loaded grants until the first edit.
  const [edited, setGrants] = useState<RoleGrant[] | null>(null);
  const grants = edited ?? groups.data?.grants ?? null;
  const features = groups.data?.features ?? [];
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  if (groups.error) return <ErrorAlert message={groups.error.message || 'Grupperna kunde inte hämtas'} />;
  if (!grants) return <LoadingSpinner label="Hämtar grupper..." />;

  const toggle = (role: string, change: (g: RoleGrant) => RoleGrant) => {
    setSaved(false);
    setGrants(grants.map((g) => (g.role === role ? change(g) : g)));
  };

  const save = async () => {
    setBusy(true);
    setErrors([]);
    try {
      const result = await saveGroups({ grants: grants.map(({ role, features: f, isAdmin }) => ({ role, features: f, isAdmin })) });
      setGrants(result.grants);
      setSaved(true);
    } catch (err) {
      setErrors(err instanceof ApiError && err.errors.length ? err.errors : [{ fields: [], message: (err as Error).message }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Grupper</h1>
      <p>Här styr du vilka funktioner varje roll från inloggningen ger. Ändringar gäller från användarens nästa inloggning.</p>
      <ErrorList errors={errors} fieldIds={{}} />
      {saved && (
        <Alert variant="success" live="status">
          <p>Grupperna är sparade. De gäller från nästa inloggning.</p>
        </Alert>
      )}
      <TableScroll label="Roller och vad de ger">
        <table className="admin-table groups-table">
          <caption className="visually-hidden">Roller och vad de ger</caption>
          <thead>
            <tr>
              <th scope="col">Roll</th>
              <th scope="col">Användarnivå</th>
              {features.map((f) => (
                <th scope="col" key={f}>
                  {FEATURE_TEXT[f] ?? f}
                </th>
              ))}
              <th scope="col">Administratör</th>
            </tr>
          </thead>
          <tbody>
            {grants.map((g) => (
              <tr key={g.role}>
                <th scope="row">
                  {ROLE_TEXT[g.role] ?? g.role}
                  <span className="muted small"> ({g.role})</span>
                </th>
                <td>{g.userLevel}</td>
                {features.map((f) => (
                  <td key={f}>
                    <input
                      type="checkbox"
                      aria-label={`${FEATURE_TEXT[f] ?? f} för ${ROLE_TEXT[g.role] ?? g.role}`}
                      checked={g.features.includes(f)}
                      onChange={(e) =>
                        toggle(g.role, (x) => ({ ...x, features: e.target.checked ? [...x.features, f] : x.features.filter((y) => y !== f) }))
                      }
                    />
                  </td>
                ))}
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Administratör för ${ROLE_TEXT[g.role] ?? g.role}`}
                    checked={g.isAdmin}
                    onChange={(e) => toggle(g.role, (x) => ({ ...x, isAdmin: e.target.checked }))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Button onClick={() => void save()} busy={busy}>
        Spara
      </Button>
    </>
  );
}
