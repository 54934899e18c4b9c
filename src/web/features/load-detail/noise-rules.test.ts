import { describe, expect, it } from 'vitest';
import { isNoiseEvent, NOISE_RULES, type NoiseRule } from './noise-rules';

const event = (name: string | undefined, code?: string) => ({ name, code });

describe('isNoiseEvent', () => {
  it('knows the service’s notices, whatever their case and spacing', () => {
    expect(isNoiseEvent(event('Driver has viewed the load track'))).toBe(true);
    expect(isNoiseEvent(event('DRIVER HAS   VIEWED THE LOAD TRACK', 'VW'))).toBe(true);
    expect(isNoiseEvent(event('Sent text message to driver'))).toBe(true);
    expect(isNoiseEvent(event('app not installed'))).toBe(true);
  });

  it('leaves the driver’s statuses alone', () => {
    for (const name of ['Dispatched', 'In transit', 'Arrived at pickup', 'Delivered', 'Loaded']) {
      expect(isNoiseEvent(event(name, 'X'))).toBe(false);
      expect(isNoiseEvent(event(name))).toBe(false);
    }
    expect(isNoiseEvent(event(undefined))).toBe(false);
  });

  it('counts a generic word as noise only on an event without a code', () => {
    expect(isNoiseEvent(event('Push notification delivered'))).toBe(true);
    expect(isNoiseEvent(event('Push notification delivered', 'PND'))).toBe(false);
    expect(isNoiseEvent(event('Push notification delivered', '  '))).toBe(true);
  });

  it('takes another rule list', () => {
    const rules: NoiseRule[] = [{ contains: 'geofence' }];
    expect(isNoiseEvent(event('Entered geofence', 'GF'), rules)).toBe(true);
    expect(isNoiseEvent(event('Driver has viewed the load track'), rules)).toBe(false);
    expect(NOISE_RULES.length).toBeGreaterThan(0);
  });
});

describe('isNoiseEvent, asked again', () => {
  it('gives the same verdict for the same name, with and without a code', () => {
    // The verdict is remembered per name: a name judged with a code must not decide it without one.
    expect(isNoiseEvent(event('Reminder delivered', 'RM'))).toBe(false);
    expect(isNoiseEvent(event('Reminder delivered'))).toBe(true);
    expect(isNoiseEvent(event('Reminder delivered', 'RM'))).toBe(false);
  });

  it('judges each rule list by its own rules', () => {
    const mine: NoiseRule[] = [{ contains: 'Entered  GEOFENCE' }];
    expect(isNoiseEvent(event('entered geofence', 'GF'), mine)).toBe(true);
    expect(isNoiseEvent(event('entered geofence', 'GF'))).toBe(false);
  });
});
