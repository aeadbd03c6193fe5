import { Dialog } from '../../../components/ui/dialog.tsx';
import { buttonClass } from '../../../components/ui/button.tsx';
import { SHARE_TEXTS } from '../model/texts.ts';

/** "{name} delar redan sin skärm. Vill du ta över skärmdelningen?" (spec §2 Prompts, §4 Screen sharing). */
export function TakeoverDialog({ name, onConfirm, onCancel }: { name: string | null; onConfirm(): void; onCancel(): void }) {
  return (
    <Dialog
      open={name !== null}
      role="alertdialog"
      title={SHARE_TEXTS.takeoverQuestion(name ?? '')}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className={buttonClass('primary')} onClick={onConfirm}>
            {SHARE_TEXTS.takeoverConfirm}
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={onCancel} data-autofocus>
            {SHARE_TEXTS.takeoverCancel}
          </button>
        </>
      }
    />
  );
}
