import { type ReactNode, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * A button opening a modal `<dialog>` (the browser traps focus in it, Escape closes it and
 * focus returns to the button). `children` gets `close`.
 */
export function DialogButton({
  label,
  title,
  className = 'button',
  dialogClassName,
  children,
}: {
  label: ReactNode;
  title: string;
  className?: string;
  /** The dialog's own class (`dialog-wide` for a table). */
  dialogClassName?: string;
  children: (close: () => void) => ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const show = () => {
    // Rendered before it opens, so the browser moves the focus to its first control.
    flushSync(() => setOpen(true));
    ref.current?.showModal();
  };
  const close = () => {
    ref.current?.close();
    setOpen(false);
  };
  return (
    <>
      <button type="button" className={className} onClick={show}>
        {label}
      </button>
      <dialog
        ref={ref}
        className={dialogClassName}
        aria-labelledby={titleId}
        onClose={() => setOpen(false)}
      >
        <h2 id={titleId}>{title}</h2>
        {open ? children(close) : null}
      </dialog>
    </>
  );
}

/** A destructive action behind a yes/no question. */
export function ConfirmButton({
  label,
  title,
  question,
  confirm,
  onConfirm,
}: {
  label: ReactNode;
  title: string;
  question: ReactNode;
  confirm: string;
  onConfirm(): void | Promise<void>;
}) {
  return (
    <DialogButton label={label} title={title} className="button button-danger">
      {(close) => (
        <>
          <p>{question}</p>
          <div className="row">
            <button
              type="button"
              className="button button-danger"
              onClick={async () => {
                close();
                await onConfirm();
              }}
            >
              {confirm}
            </button>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </>
      )}
    </DialogButton>
  );
}
