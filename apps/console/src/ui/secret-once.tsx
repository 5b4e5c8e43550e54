import { useEffect, useRef } from 'react';
import { CopyButton } from './copy-button';

/**
 * A secret the portal shows once (an API key, a webhook signing secret): focused when it
 * appears, copyable, gone when dismissed; it is never stored anywhere else in the page.
 */
export function SecretOnce({
  title,
  secret,
  note,
  onDone,
}: {
  title: string;
  secret: string;
  note: string;
  onDone(): void;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section className="secret" aria-labelledby="secret-title" tabIndex={-1} ref={ref}>
      <h2 id="secret-title">{title}</h2>
      <p>{note}</p>
      <p className="secret-value">
        <code data-secret>{secret}</code>
      </p>
      <div className="row">
        <CopyButton text={secret} />
        <button
          type="button"
          className="button"
          onClick={() => {
            // The panel goes away with the focused button: the page's heading takes the focus.
            document.getElementById('page-title')?.focus();
            onDone();
          }}
        >
          Done, I have stored it
        </button>
      </div>
    </section>
  );
}
