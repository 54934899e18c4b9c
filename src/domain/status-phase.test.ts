import { describe, expect, it } from 'vitest';
import { isFinished, statusPhase, statusReadingsKept } from './status-phase';

const status = (name: string | undefined, code?: string) => ({ name, code });

describe('statusPhase', () => {
  it('places the service’s own statuses by their codes, in trip order', () => {
    const trip = [
      ['Load track created', 'CRT'],
      ['Dispatched', 'DSP'],
      ['Arrived at pickup', 'APU'],
      ['Loaded', 'LDD'],
      ['In transit', 'ITR'],
      ['Arrived at delivery', 'ADL'],
      ['Delivered', 'DLV'],
    ] as const;
    expect(trip.map(([name, code]) => statusPhase(status(name, code)))).toEqual([
      'planned',
      'planned',
      'pickup',
      'pickup',
      'transit',
      'delivery',
      'delivered',
    ]);
  });

  it('reads a code in any case and with spaces around it, and X12 214 codes carriers send', () => {
    expect(statusPhase(status(undefined, ' itr '))).toBe('transit');
    expect(statusPhase(status(undefined, 'X3'))).toBe('pickup');
    expect(statusPhase(status(undefined, 'X1'))).toBe('delivery');
    expect(statusPhase(status(undefined, 'D1'))).toBe('delivered');
  });

  it('without a known code, goes by the name’s words, the most telling first', () => {
    // "Unloaded" holds "loaded", "Arrived at delivery" is not delivered yet, and a load en route to
    // its receiver is on the road.
    expect(statusPhase(status('Unloaded'))).toBe('delivery');
    expect(statusPhase(status('Arrived at delivery', 'ZZZ'))).toBe('delivery');
    expect(statusPhase(status('Delivered'))).toBe('delivered');
    expect(statusPhase(status('POD uploaded'))).toBe('delivered');
    expect(statusPhase(status('Loading at shipper'))).toBe('pickup');
    expect(statusPhase(status('En route to receiver'))).toBe('transit');
    expect(statusPhase(status('At receiver'))).toBe('delivery');
    expect(statusPhase(status('En route'))).toBe('transit');
    expect(statusPhase(status('Tender accepted'))).toBe('planned');
    // Done at pickup is not delivered; on the way to the shipper is before pickup.
    expect(statusPhase(status('Pickup completed'))).toBe('pickup');
    expect(statusPhase(status('Loading complete'))).toBe('pickup');
    expect(statusPhase(status('Delivery completed'))).toBe('delivered');
    expect(statusPhase(status('En route to shipper'))).toBe('planned');
    expect(statusPhase(status('Heading to pickup'))).toBe('planned');
  });

  it('gives no phase to a status that says something did not happen, or only what is scheduled', () => {
    expect(statusPhase(status('Delivery attempted - not delivered'))).toBe('other');
    expect(statusPhase(status('Not delivered'))).toBe('other');
    expect(statusPhase(status('Unable to load'))).toBe('other');
    expect(statusPhase(status('Delivery appointment scheduled'))).toBe('other');
    expect(statusPhase(status('Pickup scheduled'))).toBe('other');
    // A known code still says where the load is, whatever its name.
    expect(statusPhase(status('Pickup scheduled', 'DLV'))).toBe('delivered');
  });

  it('is other when nothing says, never a guess, nor for a code we do not know', () => {
    expect(statusPhase(undefined)).toBe('other');
    expect(statusPhase(status(undefined, undefined))).toBe('other');
    expect(statusPhase(status('Sent text message to driver'))).toBe('other');
    expect(statusPhase(status('', ''))).toBe('other');
    expect(statusPhase(status(undefined, 'constructor'))).toBe('other');
    expect(statusPhase(status(undefined, '__proto__'))).toBe('other');
  });

  it('reads the same pair alike as a copy or after thousands of other names', () => {
    // Each status a pull brings is a fresh copy; what it says is the same as the original's.
    const delivered = status('Delivered', 'DLV');
    expect(statusPhase({ ...delivered })).toBe('delivered');
    expect(isFinished({ ...delivered })).toBe(true);
    // A code and a name that say different things are read as a pair, not by either alone.
    expect(statusPhase(status('In transit', 'DLV'))).toBe('delivered');
    expect(statusPhase(status('In transit', 'ITR'))).toBe('transit');
    expect(isFinished(status('In transit', 'CXL'))).toBe(true);
    expect(statusPhase(status('In transit', 'CXL'))).toBe('transit');
    // A hostile upstream's ten thousand names, each its own, then the usual ones again.
    for (let i = 0; i < 10_000; i++) {
      expect(statusPhase(status(`Load ${i} delivered`))).toBe('delivered');
      expect(isFinished(status(`Load ${i} cancelled`))).toBe(true);
      expect(statusPhase(status(`Load ${i} cancelled`))).toBe('other');
    }
    expect(statusReadingsKept()).toBeLessThanOrEqual(4096);
    expect(statusPhase(status('In transit', 'ITR'))).toBe('transit');
    expect(isFinished(status('In transit', 'ITR'))).toBe(false);
    expect(statusPhase(status('Loaded'))).toBe('pickup');
    // A long text is read, not kept.
    const kept = statusReadingsKept();
    const long = `${'x'.repeat(10_000)} delivered`;
    expect(statusPhase(status(long))).toBe('delivered');
    expect(isFinished(status(`${long} cancelled`))).toBe(true);
    expect(statusReadingsKept()).toBe(kept);
  });
});
