import { describe, expect, it } from 'vitest';
import { PUBLIC_URL_HOSTS, REFUSED_URL_HOSTS } from './address-forms';
import { isPrivateAddress, isPublicAddress } from './address-policy';

/** The address a URL host names, as the portal and undici read it (brackets dropped). */
const addressOf = (host: string) => new URL(`https://${host}/`).hostname.replace(/^\[|\]$/g, '');

describe('isPrivateAddress', () => {
  it.each(REFUSED_URL_HOSTS)('refuses the URL host %s', (host) => {
    expect(isPrivateAddress(addressOf(host))).toBe(true);
  });

  it.each(PUBLIC_URL_HOSTS)('allows the URL host %s', (host) => {
    expect(isPrivateAddress(addressOf(host))).toBe(false);
  });

  // As DNS answers and socket peers spell them: not normalised by any URL parser.
  it.each([
    '127.0.0.1',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::',
    '::127.0.0.1',
    '0::7f00:1',
    '::ffff:127.0.0.1',
    '::FFFF:7F00:1',
    '0000:0000:0000:0000:0000:ffff:7f00:0001',
    '::ffff:0:127.0.0.1',
    '2002:7f00:0001::',
    '2002:7F00:1:0:0:0:0:1',
    '64:ff9b::10.0.0.1',
    '64:FF9B:0:0:0:0:a9fe:a9fe',
    '2001:0000:4136:e378:8000:63bf:3fff:fdd2',
    'fe80::1%eth0',
    'FE80::1',
    'fd00::1',
    'ff02::1',
    '100::',
    '2001:db8:85a3::8a2e:370:7334',
    'not-an-address',
    '',
    '127.1',
    '010.0.0.1',
    '[::1]',
  ])('refuses the address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '2001:4860:4860::8888',
    '2001:4860:4860:0:0:0:0:8888',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
  ])('allows the address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
