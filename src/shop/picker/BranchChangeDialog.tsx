import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { selectIsConfirming } from '../../../machines/branchChange';
import { useBranchChange } from '../shopContext';
import { t } from '../../i18n';

/** The confirmation before a branch change empties the cart (SPEC.md 2.1). */
export function BranchChangeDialog() {
  const branch = useBranchChange();
  const open = useSelector(branch, selectIsConfirming);
  return <ConfirmDialog
    open={open}
    title={t('spec.changeBranchTitle')}
    message={t('picker.changeMessage')}
    onCancel={() => branch.send({ type: 'branch.cancel' })}
    onConfirm={() => branch.send({ type: 'branch.confirm' })}
  />;
}

/** A small modal with Cancel and Confirm; Escape cancels. */
export function ConfirmDialog({ open, title, message, onCancel, onConfirm }: {
  open: boolean; title: string; message: string; onCancel(): void; onConfirm(): void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    cancelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onCancel(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onCancel]);
  if (!open) return null;
  return (
    <div className="shop-dialog-backdrop" onClick={onCancel}>
      <div className="shop-dialog" role="dialog" aria-modal="true" aria-labelledby="shop-dialog-title" aria-describedby="shop-dialog-message" onClick={(e) => e.stopPropagation()}>
        <h2 id="shop-dialog-title">{title}</h2>
        <p id="shop-dialog-message">{message}</p>
        <div className="shop-dialog__actions">
          <button ref={cancelRef} className="shop-button shop-button--ghost" onClick={onCancel}>{t('picker.cancel')}</button>
          <button className="shop-button" onClick={onConfirm}>{t('picker.confirm')}</button>
        </div>
      </div>
    </div>
  );
}
