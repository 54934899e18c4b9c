import { describe, expect, it } from 'vitest';
import { throttleKey } from './client-address';

describe('the key failed logins are counted under', () => {
  it('is an IPv4 address itself, also when written IPv4-mapped', () => {
    expect(throttleKey('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttleKey('203.0.113.8')).not.toBe(throttleKey('203.0.113.7'));
  });

  it('is the /56 of an IPv6 address, however it is written', () => {
    const key = throttleKey('2001:db8:abcd:1200::1');
    expect(key).toBe('2001:db8:abcd:1200::/56');
    for (const same of [
      '2001:db8:abcd:12ff:ffff:ffff:ffff:ffff',
      '2001:DB8:ABCD:1234::',
      '2001:0db8:abcd:1201:0:0:0:9',
      '2001:db8:abcd:12aa::192.0.2.1',
      '2001:db8:abcd:1200::1%eth0',
    ])
      expect(throttleKey(same), same).toBe(key);
    expect(throttleKey('2001:db8:abcd:1300::1')).not.toBe(key);
    expect(throttleKey('2001:db8::1')).toBe('2001:db8:0:0::/56');
    expect(throttleKey('::1')).toBe('0:0:0:0::/56');
  });

  it('keeps what is not an address as it is', () => {
    for (const other of ['unknown', '', '2001:db8::zz', '1.2.3.4:80']) expect(throttleKey(other)).toBe(other);
  });
});
