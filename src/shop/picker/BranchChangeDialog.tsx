import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { TEXT } from '../../../domain/constants';
import { selectIsConfirming } from '../../../machines/branchChange';
import { useBranchChange } from '../shopContext';

/** The confirmation before a branch change empties the cart (SPEC.md 2.1). */
export function BranchChangeDialog() {
  const branch = useBranchChange();
  const open = useSelector(branch, selectIsConfirming);
  return <ConfirmDialog
    open={open}
    title={TEXT.changeBranchTitle}
    message="Changing the branch may remove items from your cart, because the menu may differ between branches."
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
          <button ref={cancelRef} className="shop-button shop-button--ghost" onClick={onCancel}>Cancel</button>
          <button className="shop-button" onClick={onConfirm}>Confirm</button>
        </div>
      </div>
    </div>
  );
}
