import { BlockList, isIP } from 'node:net';

/**
 * Addresses a subscriber URL must not reach outside development: unspecified, loopback,
 * private (RFC 1918, unique-local), carrier-grade NAT, link-local (cloud metadata at
 * 169.254.169.254 among them), benchmarking, multicast and reserved ranges.
 */
export function privateAddressRanges(): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  for (const [network, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv6');
  }
  return list;
}

const DEFAULT_RANGES = privateAddressRanges();

/** Whether an IP address (v4, v6, or v4-mapped v6) falls in a refused range. */
export function isPrivateAddress(address: string, ranges: BlockList = DEFAULT_RANGES): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address: refuse rather than guess
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return ranges.check(mapped, 'ipv4');
    // ::ffff:7f00:1 spelling of a mapped address
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hexMapped) {
      const hi = Number.parseInt(hexMapped[1]!, 16);
      const lo = Number.parseInt(hexMapped[2]!, 16);
      return ranges.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
    return ranges.check(address, 'ipv6');
  }
  return ranges.check(address, 'ipv4');
}
