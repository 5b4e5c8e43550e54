import { createSecretBox } from '@erp/webhooks';
import { describe, expect, it } from 'vitest';
import { cachedSecretBox } from './secret-cache';

const KEY = 'secret-cache-test-key-0123456789abcdef0123';

describe('cachedSecretBox', () => {
  it('opens a ciphertext once, a new one (rotation) anew, and refuses one bound elsewhere', () => {
    const box = createSecretBox(KEY);
    let opens = 0;
    const counting = {
      ...box,
      open: (sealed: Buffer, boundTo: string) => {
        opens++;
        return box.open(sealed, boundTo);
      },
    };
    const cached = cachedSecretBox(counting);
    const first = box.seal('whsec_first', 'sub-1');
    expect(cached.open(first, 'sub-1')).toBe('whsec_first');
    expect(cached.open(first, 'sub-1')).toBe('whsec_first');
    expect(opens).toBe(1);
    const rotated = box.seal('whsec_second', 'sub-1');
    expect(cached.open(rotated, 'sub-1')).toBe('whsec_second');
    expect(cached.open(first, 'sub-1')).toBe('whsec_first'); // the previous secret, still signing
    expect(() => cached.open(first, 'sub-2')).toThrow();
  });

  it('starts over past its bound', () => {
    const box = createSecretBox(KEY);
    const cached = cachedSecretBox(box, 2);
    const sealed = ['a', 'b', 'c'].map((id) => [box.seal(`whsec_${id}`, id), id] as const);
    for (const [s, id] of sealed) expect(cached.open(s, id)).toBe(`whsec_${id}`);
    for (const [s, id] of sealed) expect(cached.open(s, id)).toBe(`whsec_${id}`);
  });
});
