import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { ipv6Hextets } from '@erp/http';

/**
 * Which addresses a subscriber URL may reach outside development: public unicast only.
 *
 * Addresses are classified by their bits, never by their spelling: `::127.0.0.1`,
 * `::ffff:0:7f00:1` and `2002:7f00:1::` are all loopback in disguise. Parsing is left to the
 * platform rather than done by hand: `net.BlockList` (inet_pton underneath) matches ranges
 * whatever the spelling, and the WHATWG URL parser, which already parsed the subscriber URL
 * (so it is the parser whose reading counts), gives IPv6 in RFC 5952 form, from which the
 * embedded IPv4 of a translation prefix is read. No dependency needed for that (ipaddr.js
 * would do the same); what matters is that the rules below are exhaustive:
 *
 * - IPv4: every special-purpose range that is not globally reachable (IANA registry).
 * - IPv6: only global unicast (2000::/3) can be public; everything else is refused:
 *   unspecified, loopback, IPv4-compatible (::/96, deprecated), IPv4-translated
 *   (::ffff:0:0:0/96), local-use NAT64 (64:ff9b:1::/48), discard (100::/64), SRv6 (5f00::/16),
 *   unique-local, site-local, link-local, multicast.
 * - Inside 2000::/3: the IETF protocol block 2001::/23 (Teredo 2001::/32, benchmarking, ORCHID)
 *   and the documentation prefixes are refused. Teredo is refused whole rather than decoded:
 *   its client address is obfuscated and reached through a relay, and no real subscriber
 *   sits behind one.
 * - IPv4 carried in IPv6 (mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged
 *   by the IPv4 address it carries: `[::ffff:8.8.8.8]` and a DNS64 answer for a public host
 *   pass, `[64:ff9b::10.0.0.1]` does not.
 */
const IPV4_NOT_PUBLIC = blockList('ipv4', [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 included
]);

const IPV6_GLOBAL_UNICAST = blockList('ipv6', [['2000::', 3]]);

const IPV6_NOT_PUBLIC = blockList('ipv6', [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID, …
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
]);

/** Whether an IP address (any spelling of v4 or v6) is refused: anything but public unicast. */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Whether an IP address is public unicast; anything else, not an address included, is not. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !IPV4_NOT_PUBLIC.check(address, 'ipv4');
  if (!isIPv6(address)) return false;
  const hextets = ipv6Hextets(address);
  if (!hextets) return false; // a zone id (`fe80::1%eth0`): link-local anyway
  const carried = carriedIpv4(hextets);
  if (carried) return !IPV4_NOT_PUBLIC.check(carried, 'ipv4');
  const canonical = hextets.map((h) => h.toString(16)).join(':');
  return IPV6_GLOBAL_UNICAST.check(canonical, 'ipv6') && !IPV6_NOT_PUBLIC.check(canonical, 'ipv6');
}

/** The IPv4 address an IPv4-mapped, NAT64 (well-known prefix) or 6to4 address carries. */
function carriedIpv4(h: number[]): string | undefined {
  const zero = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && h[5] === 0xffff) return ipv4(h[6]!, h[7]!); // ::ffff:0:0/96
  if (h[0] === 0x64 && h[1] === 0xff9b && zero(2, 6)) return ipv4(h[6]!, h[7]!); // 64:ff9b::/96
  if (h[0] === 0x2002) return ipv4(h[1]!, h[2]!); // 2002::/16
  return undefined;
}

const ipv4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

function blockList(family: 'ipv4' | 'ipv6', ranges: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}
