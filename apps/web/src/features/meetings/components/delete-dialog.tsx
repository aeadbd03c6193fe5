import { useEffect, useRef } from 'react';

/** A modal confirmation (spec §2: 'Ja, ta bort' / 'Nej, avbryt'); the native dialog traps focus and closes on Escape. */
export function DeleteDialog({ title, text, onConfirm, onCancel, busy, error }: { title: string; text: string; onConfirm(): void; onCancel(): void; busy?: boolean; error?: string | null }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} className="vm-dialog" aria-labelledby="delete-dialog-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id="delete-dialog-title">{title}</h2>
      <p>{text}</p>
      {/* A failed delete is said here, where it was asked for; the dialog stays so it can be tried again. */}
      {error && (
        <p className="vm-dialog__error" role="alert">
          {error}
        </p>
      )}
      <div className="vm-row">
        <button type="button" className="vm-button vm-button--danger" onClick={onConfirm} disabled={busy}>
          Ja, ta bort
        </button>
        <button type="button" className="vm-button vm-button--secondary" onClick={onCancel} autoFocus>
          Nej, avbryt
        </button>
      </div>
    </dialog>
  );
}
