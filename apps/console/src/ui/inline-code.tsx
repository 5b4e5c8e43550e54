import type { ReactNode } from 'react';

/** The contract's descriptions mark names with backticks (`customer_group`): shown as code. */
export function inlineCode(text: string): ReactNode {
  const parts = text.split('`');
  if (parts.length < 3) return text;
  return parts.map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}
