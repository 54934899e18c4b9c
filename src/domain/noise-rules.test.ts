import { describe, expect, it } from 'vitest';
import { isNoiseEvent, NOISE_RULES, noiseRules, type NoiseRule } from './noise-rules';

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

describe('noiseRules, the list in force', () => {
  it('is the built-in list by default, and adds the configured texts after it', () => {
    expect(noiseRules({ builtIn: true })).toEqual(NOISE_RULES);
    const rules = noiseRules({
      builtIn: true,
      contains: ['Geofence entered'],
      containsWithoutCode: ['ping'],
    });
    expect(rules.slice(0, NOISE_RULES.length)).toEqual(NOISE_RULES);
    expect(rules.slice(NOISE_RULES.length)).toEqual([
      { contains: 'Geofence entered' },
      { contains: 'ping', onlyWithoutCode: true },
    ]);
    expect(isNoiseEvent(event('Geofence ENTERED at pickup', 'GF'), rules)).toBe(true);
    expect(isNoiseEvent(event('Ping received'), rules)).toBe(true);
    expect(isNoiseEvent(event('Ping received', 'PR'), rules)).toBe(false);
    expect(isNoiseEvent(event('Sent text message to driver'), rules)).toBe(true);
  });

  it('drops the built-in list when told, keeping only the configured texts', () => {
    const rules = noiseRules({ builtIn: false, contains: ['Geofence entered'] });
    expect(rules).toEqual([{ contains: 'Geofence entered' }]);
    expect(isNoiseEvent(event('Driver has viewed the load track'), rules)).toBe(false);
    expect(isNoiseEvent(event('Geofence entered'), rules)).toBe(true);
    expect(noiseRules({ builtIn: false })).toEqual([]);
  });

  it('adds a text once per reach, and never an empty one', () => {
    const rules = noiseRules({
      builtIn: true,
      contains: ['  APP not   installed ', 'Geofence', 'geofence', '  '],
      containsWithoutCode: ['geofence', 'SMS'],
    });
    expect(rules.slice(NOISE_RULES.length)).toEqual([
      { contains: 'Geofence' },
      { contains: 'geofence', onlyWithoutCode: true },
    ]);
  });

  it('lets no rule without text mark every event as a notice, whoever sent the list', () => {
    const rules: NoiseRule[] = [{ contains: '   ' }, { contains: '' }, { contains: 'geofence' }];
    expect(isNoiseEvent(event('Delivered', 'DLV'), rules)).toBe(false);
    expect(isNoiseEvent(event('Geofence entered'), rules)).toBe(true);
  });
});
