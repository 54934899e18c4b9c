import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './config';

describe('parseEnv', () => {
  it('gives the documented defaults', () => {
    expect(parseEnv({})).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 8080,
      REFRESH_SECONDS: 30,
      MAX_IDS: 500,
      UPSTREAM_MAX_IDS: 100,
      UPSTREAM_TIMEOUT_MS: 15000,
      SIM_PORT: 8081,
      SIM_LOADS: 40,
      SIM_SPEED: 60,
    });
    expect(parseEnv({}).UPSTREAM_BASE_URL).toBeUndefined();
  });

  it('stops with a message that names each bad variable, without echoing secrets', () => {
    const attempt = () =>
      parseEnv({ PORT: 'eighty', UPSTREAM_BASE_URL: 'ftp://x', TILE_URL: 'tiles', ACCOUNT_ID: 'top-secret' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT/);
      expect(message).toMatch(/UPSTREAM_BASE_URL/);
      expect(message).toMatch(/TILE_URL/);
      expect(message).not.toContain('top-secret');
    }
  });

  it('reads the long track knob: off by default, 0 or at least 2 pings', () => {
    expect(parseEnv({}).SIM_LONG_TRACK_PINGS).toBe(0);
    expect(parseEnv({ SIM_LONG_TRACK_PINGS: '20000' }).SIM_LONG_TRACK_PINGS).toBe(20_000);
    expect(() => parseEnv({ SIM_LONG_TRACK_PINGS: '1' })).toThrow(/SIM_LONG_TRACK_PINGS/);
    expect(() => parseEnv({ SIM_LONG_TRACK_PINGS: '-5' })).toThrow(/SIM_LONG_TRACK_PINGS/);
  });

  it('requires the partner credentials when a real upstream is configured', () => {
    expect(() => parseEnv({ UPSTREAM_BASE_URL: 'https://tracking.example.com' })).toThrow(
      /PARTNER_ID[\s\S]*ACCOUNT_ID/,
    );
    expect(
      parseEnv({ UPSTREAM_BASE_URL: 'https://tracking.example.com/', PARTNER_ID: '12', ACCOUNT_ID: 'enc' }),
    ).toMatchObject({ UPSTREAM_BASE_URL: 'https://tracking.example.com', PARTNER_ID: 12 });
  });

  it('reads the timeline’s notice rules: texts separated by |, the built-in list kept unless told', () => {
    expect(parseEnv({})).toMatchObject({ NOISE_RULES_BUILT_IN: true });
    expect(parseEnv({}).NOISE_RULES).toBeUndefined();
    expect(
      parseEnv({
        NOISE_RULES: ' Geofence entered | Driver, app opened ',
        NOISE_RULES_WITHOUT_CODE: 'ping',
        NOISE_RULES_BUILT_IN: 'false',
      }),
    ).toMatchObject({
      NOISE_RULES: ['Geofence entered', 'Driver, app opened'],
      NOISE_RULES_WITHOUT_CODE: ['ping'],
      NOISE_RULES_BUILT_IN: false,
    });
    // An empty text would hide every event; a word that is not a yes or no is not guessed at.
    expect(() => parseEnv({ NOISE_RULES: 'geofence||opened' })).toThrow(/NOISE_RULES: .*separated by \|/);
    expect(() => parseEnv({ NOISE_RULES_WITHOUT_CODE: 'x'.repeat(101) })).toThrow(/NOISE_RULES_WITHOUT_CODE/);
    expect(() => parseEnv({ NOISE_RULES: Array(101).fill('a').join('|') })).toThrow(/NOISE_RULES: may hold/);
    expect(() => parseEnv({ NOISE_RULES_BUILT_IN: 'maybe' })).toThrow(
      /NOISE_RULES_BUILT_IN: must be true or false/,
    );
  });
});
