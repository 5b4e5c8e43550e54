import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ApiError } from '@erp/contract';
import { isPrivateAddress } from '@erp/webhooks';
import type { Deps } from '../deps';

/** A slow resolver must not hold a settings request: past this, the name counts as unresolved. */
const RESOLVE_TIMEOUT_MS = 2000;

/** Every address a host name resolves to (node's resolver, like the connection will use). */
export async function resolveHostAddresses(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/**
 * Refuses subscriber URLs that point inside the network, unless private URLs are allowed
 * (development): `https` only, no private / loopback / link-local IP literal, no name that
 * resolves to one. A name that does not resolve (yet) is accepted: the worker checks the
 * address it actually connects to on every attempt, which is the check that counts.
 */
export async function checkSubscriberUrl(
  deps: Pick<Deps, 'env' | 'resolveHost'>,
  url: string,
): Promise<void> {
  if (deps.env.WEBHOOK_ALLOW_PRIVATE_URLS) return;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw refused('https_required', 'the URL must use https');
  // The WHATWG parser has already normalised IPv4 spellings (2130706433, 0x7f.1) to dotted form.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw privateAddress(host);
    return;
  }
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) throw privateAddress(name);
  for (const address of await resolveQuietly(deps.resolveHost, host)) {
    if (isPrivateAddress(address)) throw privateAddress(name);
  }
}

async function resolveQuietly(
  resolve: (hostname: string) => Promise<string[]>,
  hostname: string,
): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolve(hostname), timeout]);
  } catch {
    return []; // NXDOMAIN, no address, resolver failure: judged at delivery time
  } finally {
    clearTimeout(timer);
  }
}

function privateAddress(host: string): ApiError {
  return refused(
    'private_address',
    `${host} is, or resolves to, a private, loopback or link-local address`,
  );
}

function refused(code: string, message: string): ApiError {
  return new ApiError('requete_invalide', `The subscriber URL is refused: ${message}.`, {
    issues: [{ location: 'json', path: 'url', code, message }],
  });
}
