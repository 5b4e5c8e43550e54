import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Names of the secrets `pnpm dev` generates once and keeps in `.data/dev-secrets.json`. */
export const DEV_SECRET_NAMES = [
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'API_KEY_HASH_SECRET',
  'SECRETS_ENCRYPTION_KEY',
  'SAAS_INTERNAL_API_KEY',
  'LANDING_SYNC_API_KEY',
  'PAYMENT_WEBHOOK_SECRET',
  'SEED_ADMIN_PASSWORD',
] as const;

export type DevSecrets = Record<(typeof DEV_SECRET_NAMES)[number], string>;

export interface LoadedSecrets {
  secrets: DevSecrets;
  /** True when this run created the file (first run, or after a reset). */
  created: boolean;
}

/**
 * Reads the persisted dev secrets, generating any that are missing; values set in the
 * environment win, so a developer can pin one without editing the file.
 */
export async function loadDevSecrets(
  file: string,
  env: Record<string, string | undefined>,
): Promise<LoadedSecrets> {
  const stored = await readStored(file);
  const created = stored === undefined;
  const persisted: Partial<DevSecrets> = { ...stored };
  let changed = created;
  if (!persisted.JWT_PRIVATE_KEY || !persisted.JWT_PUBLIC_KEY) {
    Object.assign(persisted, generateSigningPair());
    changed = true;
  }
  for (const name of DEV_SECRET_NAMES) {
    if (persisted[name]) continue;
    persisted[name] = generateSecret(name);
    changed = true;
  }
  if (changed) await writeSecrets(file, persisted);
  const secrets = { ...persisted } as DevSecrets;
  for (const name of DEV_SECRET_NAMES) {
    const fromEnv = env[name];
    if (fromEnv) secrets[name] = fromEnv;
  }
  return { secrets, created };
}

function generateSecret(name: (typeof DEV_SECRET_NAMES)[number]): string {
  // The password is 20 URL-safe characters: easy to paste into a JSON body or a shell.
  if (name === 'SEED_ADMIN_PASSWORD') return randomBytes(15).toString('base64url');
  // Shaped like a Stripe endpoint secret, the default PAYMENT_PROVIDER's.
  if (name === 'PAYMENT_WEBHOOK_SECRET') return `whsec_${randomBytes(24).toString('base64')}`;
  return randomBytes(32).toString('hex');
}

function generateSigningPair(): Pick<DevSecrets, 'JWT_PRIVATE_KEY' | 'JWT_PUBLIC_KEY'> {
  // Ed25519 is what the portal signs access tokens with (EdDSA through jose).
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { JWT_PRIVATE_KEY: privateKey, JWT_PUBLIC_KEY: publicKey };
}

async function readStored(file: string): Promise<Partial<DevSecrets> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A file another tool left readable by others is tightened rather than trusted as is.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  try {
    return JSON.parse(text) as Partial<DevSecrets>;
  } catch {
    throw new Error(`${file} is not valid JSON: fix it or delete it to generate new secrets`);
  }
}

async function writeSecrets(file: string, secrets: Partial<DevSecrets>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  // `mode` only applies when the file is created; an existing file keeps its own.
  await chmod(file, 0o600);
}
