import { useState } from 'react';

/** Copies `text` to the clipboard and says so (the status is announced to screen readers). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <>
      <button type="button" className="button" onClick={copy}>
        {label}
      </button>
      <span className="copy-status" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Copy failed: select the text.' : ''}
      </span>
    </>
  );
}
