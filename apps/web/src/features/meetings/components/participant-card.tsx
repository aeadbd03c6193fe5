import type { ErrorItem } from '@videomote/contract/errors';
import type { UserLevel } from '@videomote/contract/identity';
import { ROLE_LABELS, type ParticipantRole } from '@videomote/contract/participant-roles';
import { FIELD, isAdminGrantable, isStaffRole, roleOptions } from '@videomote/contract/meeting-rules';
import { useUser } from '../../session/session-context.tsx';
import type { CardState } from '../model/meeting-form.ts';
import { EmployeeSearch } from './employee-search.tsx';

const roleLabel = (role: string) => ROLE_LABELS[role as ParticipantRole] ?? role;

interface Props {
  card: CardState;
  index: number;
  type: 0 | 1;
  level: UserLevel;
  errors: ErrorItem[];
  onChange(card: CardState): void;
  onEdit(): void;
  onSave(): void;
  onCancel(): void;
  onRemove(): void;
  canEditCards: boolean;
}

/** A participant card (spec §4): read-only or edit mode; only the user's own card and unsaved ones can be edited. */
export function ParticipantCard({ card, index, type, level, errors, onChange, onEdit, onSave, onCancel, onRemove, canEditCards }: Props) {
  const { features } = useUser();
  const errorFor = (field: string) => errors.find((e) => e.fields[0] === field)?.message;
  const headingId = `participant-${index}-heading`;
  const name = card.displayName || 'Ny deltagare';

  if (!card.editMode) {
    const editable = (card.currentUser || !card.id) && canEditCards;
    return (
      <li id={`participant-${index}`} tabIndex={-1} className="vm-participant" aria-labelledby={headingId}>
        <h3 id={headingId}>
          {card.currentUser ? `${name} (du)` : name}
          {card.isAdmin && <span className="vm-badge">Administratör</span>}
          {card.selfRegistered && <span className="vm-badge vm-badge--muted">Självregistrerad</span>}
        </h3>
        <p>
          {roleLabel(card.role)}
          {card.afId && !card.currentUser ? `, ${card.afId}` : ''}
          {card.pin ? `, personnummer ${card.pin}` : ''}
        </p>
        {errors.map((e) => (
          <p key={e.fields.join(',') + e.message} className="vm-field__error">
            {e.message}
          </p>
        ))}
        <div className="vm-row">
          {editable && (
            <button type="button" className="vm-button vm-button--secondary" onClick={onEdit} aria-label={`Ändra ${name}`}>
              Ändra
            </button>
          )}
          {!card.currentUser && canEditCards && (
            <button type="button" className="vm-button vm-button--secondary" onClick={onRemove} aria-label={`Ta bort ${name}`}>
              Ta bort
            </button>
          )}
        </div>
      </li>
    );
  }

  // Without InternalMeeting (Grupper) no colleague can be invited; the server refuses it too.
  const options = [...roleOptions(type, level, features)];
  if (card.role && !options.includes(card.role as ParticipantRole)) options.unshift(card.role as ParticipantRole);
  const roleError = errorFor(FIELD.role(index));
  const nameError = errorFor(FIELD.displayName(index));
  const pinError = errorFor(FIELD.pin(index));
  const staff = isStaffRole(card.role);
  const maskedPin = /^\d{8}-\*{4}$/.test(card.pin);
  return (
    <li id={`participant-${index}`} tabIndex={-1} className="vm-participant vm-participant--edit" aria-labelledby={headingId}>
      <h3 id={headingId}>{card.currentUser ? `${name} (du)` : card.isNew ? 'Ny deltagare' : `Ändra ${name}`}</h3>
      <div className="vm-field">
        <label htmlFor={FIELD.role(index)}>Roll</label>
        <select
          id={FIELD.role(index)}
          value={card.role}
          onChange={(e) => onChange({ ...card, role: e.target.value, isAdmin: card.currentUser || (card.isAdmin && isAdminGrantable(e.target.value)) })}
          aria-invalid={roleError ? true : undefined}
          aria-describedby={roleError ? `${FIELD.role(index)}-error` : undefined}
        >
          <option value="">- Välj roll -</option>
          {options.map((r) => (
            <option key={r} value={r}>
              {roleLabel(r)}
            </option>
          ))}
        </select>
        {roleError && (
          <span id={`${FIELD.role(index)}-error`} className="vm-field__error">
            {roleError}
          </span>
        )}
      </div>

      {!card.currentUser && staff && (
        <EmployeeSearch
          inputId={FIELD.afId(index)}
          selected={card.afId ? { afId: card.afId, displayName: card.displayName } : null}
          onSelect={(e) => onChange({ ...card, afId: e.signatur, displayName: e.namn, email: e.elektroniskAdress })}
          error={errorFor(FIELD.afId(index))}
        />
      )}

      {!card.currentUser && !staff && card.role && (
        <>
          <div className="vm-field">
            <label htmlFor={FIELD.displayName(index)}>Namn eller initialer</label>
            <input
              id={FIELD.displayName(index)}
              value={card.displayName}
              autoComplete="off"
              onChange={(e) => onChange({ ...card, displayName: e.target.value })}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${FIELD.displayName(index)}-error` : undefined}
            />
            {nameError && (
              <span id={`${FIELD.displayName(index)}-error`} className="vm-field__error">
                {nameError}
              </span>
            )}
          </div>
          <div className="vm-field">
            <label htmlFor={FIELD.pin(index)}>Personnummer</label>
            <span id={`${FIELD.pin(index)}-hint`} className="vm-field__hint">
              {maskedPin || card.id || card.copiedFromParticipantId ? 'Det sparade numret behålls om du inte skriver ett nytt' : 'ÅÅÅÅMMDD-NNNN'}
            </span>
            <input
              id={FIELD.pin(index)}
              value={card.pin}
              inputMode="numeric"
              autoComplete="off"
              onChange={(e) => onChange({ ...card, pin: e.target.value })}
              aria-invalid={pinError ? true : undefined}
              aria-describedby={`${FIELD.pin(index)}-hint${pinError ? ` ${FIELD.pin(index)}-error` : ''}`}
            />
            {pinError && (
              <span id={`${FIELD.pin(index)}-error`} className="vm-field__error">
                {pinError}
              </span>
            )}
          </div>
        </>
      )}

      {!card.currentUser && isAdminGrantable(card.role) && (
        <div className="vm-check">
          <input id={FIELD.isAdmin(index)} type="checkbox" checked={card.isAdmin} onChange={(e) => onChange({ ...card, isAdmin: e.target.checked })} />
          <label htmlFor={FIELD.isAdmin(index)}>Administratör för mötet</label>
        </div>
      )}

      <div className="vm-row">
        <button type="button" className="vm-button" onClick={onSave}>
          Spara deltagare
        </button>
        <button type="button" className="vm-button vm-button--secondary" onClick={onCancel}>
          Avbryt
        </button>
      </div>
    </li>
  );
}
