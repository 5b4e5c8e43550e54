import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Prefix of signing secrets: the Standard Webhooks form `whsec_<base64 of 32 random bytes>`. */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret, shown to the user once. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const FORMAT_V1 = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts secrets at rest with AES-256-GCM under a key derived from `SECRETS_ENCRYPTION_KEY`.
 * Stored form: version byte, IV, tag, ciphertext; the subscription id is the associated data,
 * so a ciphertext copied onto another subscription does not decrypt.
 */
export interface SecretBox {
  seal(plaintext: string, boundTo: string): Buffer;
  open(sealed: Buffer, boundTo: string): string;
}

/** A secret box keyed by the configured encryption key (any string of ≥ 32 characters). */
export function createSecretBox(encryptionKey: string): SecretBox {
  if (encryptionKey.length < 32) throw new Error('the encryption key needs at least 32 characters');
  const key = createHash('sha256')
    .update('erp webhook secrets v1\0')
    .update(encryptionKey)
    .digest();
  return {
    seal(plaintext, boundTo) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT_V1]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed, boundTo) {
      if (sealed[0] !== FORMAT_V1) throw new Error('unknown secret format');
      const iv = sealed.subarray(1, 1 + IV_BYTES);
      const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
