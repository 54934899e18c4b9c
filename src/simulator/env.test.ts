import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT_ID, DEMO_JWT_SECRET, DEMO_PARTNER_ID } from './demo';
import { faultsFromEnv, parseSimulatorEnv } from './env';
import { FaultSettings } from './faults';

describe('the simulator environment', () => {
  it('defaults to the demo fleet, credentials and secret, with every fault off', () => {
    const env = parseSimulatorEnv({});
    expect(env).toMatchObject({
      SIM_PORT: 8081,
      SIM_SEED: 20261122,
      SIM_LOADS: 40,
      SIM_SPEED: 60,
      SIM_JWT_SECRET: DEMO_JWT_SECRET,
      PARTNER_ID: DEMO_PARTNER_ID,
      ACCOUNT_ID: DEMO_ACCOUNT_ID,
    });
    expect(FaultSettings.parse(faultsFromEnv(env))).toEqual(FaultSettings.parse({}));
  });

  it('reads numbers and fault knobs from text, an empty value counting as unset', () => {
    const env = parseSimulatorEnv({
      SIM_PORT: '0',
      SIM_LOADS: '',
      SIM_FAULT_LATENCY_MS: '250',
      SIM_FAULT_ERROR_RATE: '0.1',
      SIM_FAULT_429_RATE: '0.05',
      SIM_FAULT_RETRY_AFTER_S: '3',
      SIM_FAULT_INVALID_JSON_RATE: '0.3',
      SIM_FAULT_TRUNCATE_RATE: '0.02',
      SIM_FAULT_RESET_RATE: '1',
      SIM_FAULT_STATUS_FALSE_RATE: '0.04',
      SIM_FAULT_SLOW_RATE: '0.5',
      SIM_FAULT_SLOW_MS: '900',
      SIM_FAULT_OVERSIZE_RATE: '0.01',
    });
    expect(env.SIM_PORT).toBe(0);
    expect(env.SIM_LOADS).toBe(40);
    expect(faultsFromEnv(env)).toEqual({
      latencyMs: 250,
      errorRate: 0.1,
      tooManyRequestsRate: 0.05,
      retryAfterSeconds: 3,
      invalidJsonRate: 0.3,
      truncateRate: 0.02,
      resetRate: 1,
      statusFalseRate: 0.04,
      slowRate: 0.5,
      slowMs: 900,
      oversizeRate: 0.01,
    });
  });

  it('names every bad variable, and never echoes the account id', () => {
    const secretAccount = 'U2FsdGVkX1-very-secret-account-id';
    let message = '';
    try {
      parseSimulatorEnv({
        SIM_PORT: '70000',
        SIM_FAULT_ERROR_RATE: '2',
        SIM_JWT_SECRET: 'short',
        PARTNER_ID: secretAccount,
        ACCOUNT_ID: secretAccount,
      });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of ['SIM_PORT', 'SIM_FAULT_ERROR_RATE', 'SIM_JWT_SECRET', 'PARTNER_ID'])
      expect(message).toContain(name);
    expect(message).not.toContain(secretAccount);
    expect(message).not.toContain('short');
    expect(() => parseSimulatorEnv({ ACCOUNT_ID: '   ' })).toThrow(/ACCOUNT_ID: must not be blank/);
  });

  it('reads the long track knob: off by default, 0 or at least 2 pings', () => {
    expect(parseSimulatorEnv({}).SIM_LONG_TRACK_PINGS).toBe(0);
    expect(parseSimulatorEnv({ SIM_LONG_TRACK_PINGS: '20000' }).SIM_LONG_TRACK_PINGS).toBe(20_000);
    expect(() => parseSimulatorEnv({ SIM_LONG_TRACK_PINGS: '1' })).toThrow(/SIM_LONG_TRACK_PINGS/);
  });
});
