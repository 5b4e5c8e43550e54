/**
 * One table of address spellings for the tests of every layer that applies the address policy
 * (the policy itself, subscription creation, the worker's connection), written as URL hosts.
 */
export const REFUSED_URL_HOSTS: readonly string[] = [
  // IPv4 loopback, however the URL spells it (the WHATWG parser reads them all as 127.0.0.1).
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '2130706433',
  '0x7f.1',
  '0x7f000001',
  '017700000001',
  '0177.0.0.1',
  '127.000.000.001',
  '%31%32%37.0.0.1',
  '127.0.0.1.',
  '127.255.255.254',
  // Every IPv4 range that is not public.
  '0',
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.1',
  '203.0.113.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6 loopback and unspecified.
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::]',
  // IPv4-compatible (::/96, deprecated), public or not.
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[::8.8.8.8]',
  // IPv4-mapped carrying a non-public address.
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:127.0.0.1]',
  '[::ffff:10.0.0.1]',
  '[::ffff:a9fe:a9fe]',
  '[::ffff:0.0.0.0]',
  // IPv4-translated (::ffff:0:0:0/96), public or not.
  '[::ffff:0:7f00:1]',
  '[::ffff:0:808:808]',
  // 6to4 carrying a non-public address.
  '[2002:7f00:1::]',
  '[2002:7f00:1::1]',
  '[2002:a00:1::]',
  '[2002:a9fe:a9fe::1]',
  '[2002:c0a8:101::]',
  // NAT64: the well-known prefix carrying a non-public address; the local-use prefix.
  '[64:ff9b::7f00:1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::808:808]',
  // Teredo, benchmarking, ORCHID (2001::/23), documentation.
  '[2001::1]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  '[2001:2::1]',
  '[2001:10::1]',
  '[2001:db8::1]',
  '[3fff::1]',
  // Discard, SRv6, unique-local, site-local, link-local, multicast, unallocated.
  '[100::1]',
  '[5f00::1]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[fec0::1]',
  '[fe80::1]',
  '[febf:ffff::1]',
  '[ff02::1]',
  '[ff0e::1]',
  '[4000::1]',
];

/** Public addresses, in several spellings: each must be allowed. */
export const PUBLIC_URL_HOSTS: readonly string[] = [
  '8.8.8.8',
  '134744072', // 8.8.8.8 as one number
  '93.184.216.34',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '198.20.0.1',
  '[2001:4860:4860::8888]',
  '[2606:4700:4700::1111]',
  '[2a00:1450:4001:80b::200e]',
  '[::ffff:8.8.8.8]',
  '[::ffff:808:808]',
  '[64:ff9b::8.8.8.8]',
  '[2002:808:808::1]',
];
