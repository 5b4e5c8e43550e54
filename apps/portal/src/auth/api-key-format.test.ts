import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, parseApiKey } from './api-key-format';

describe('API key format', () => {
  it('round-trips a generated key', () => {
    const { key, prefix } = generateApiKey();
    expect(key).toMatch(/^service_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{36}$/);
    expect(parseApiKey(key)).toEqual({ key, prefix });
  });

  it('refuses any single-character change (checksum)', () => {
    const { key } = generateApiKey();
    let refused = 0;
    const start = key.lastIndexOf('_') + 1;
    for (let i = start; i < key.length; i++) {
      const swapped = key[i] === 'a' ? 'b' : 'a';
      if (parseApiKey(key.slice(0, i) + swapped + key.slice(i + 1)) === null) refused++;
    }
    expect(refused).toBe(key.length - start);
  });

  it('refuses malformed keys', () => {
    for (const bad of [
      '',
      'service_live_',
      'service_live_abc_def',
      `${generateApiKey().key}x`,
      'service_test_AAAAAAAAAAAA_' + 'A'.repeat(36),
    ]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it('hashes with a key', () => {
    const { key } = generateApiKey();
    const a = hashApiKey(key, Buffer.alloc(32, 1));
    expect(a).toHaveLength(32);
    expect(a.equals(hashApiKey(key, Buffer.alloc(32, 2)))).toBe(false);
  });
});
