import type { SecretBox } from '@erp/webhooks';

/** Subscriptions whose opened secrets are kept at most (then the cache starts over). */
const MAX_ENTRIES = 10_000;

/**
 * A secret box that remembers what it opened: a subscription's sealed secret is decrypted once,
 * not at every attempt (AES-GCM's set-up was a visible share of a delivery's CPU). The entry is
 * keyed by subscription and holds the ciphertext it came from, so a rotated secret (new
 * ciphertext) is opened anew. The secrets stay in this process's memory, where signing needs
 * them anyway.
 */
export function cachedSecretBox(box: SecretBox, maxEntries = MAX_ENTRIES): SecretBox {
  const opened = new Map<string, { sealed: Buffer; secret: string }>();
  return {
    seal: (plaintext, boundTo) => box.seal(plaintext, boundTo),
    open(sealed, boundTo) {
      const key = `${boundTo}:${sealed[sealed.length - 1]}`;
      const hit = opened.get(key);
      if (hit?.sealed.equals(sealed)) return hit.secret;
      const secret = box.open(sealed, boundTo);
      if (opened.size >= maxEntries) opened.clear();
      opened.set(key, { sealed: Buffer.from(sealed), secret });
      return secret;
    },
  };
}
