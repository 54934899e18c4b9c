import { z } from 'zod';
import { DEMO_ACCOUNT_ID, DEMO_JWT_SECRET, DEMO_PARTNER_ID } from './demo';
import type { FaultOptions } from './faults';

/**
 * The environment of `npm run simulator` (main.ts), parsed by its own schema: the simulator may not
 * import the server's config. Bounds match the server's SIM_* variables.
 */
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const rate = z.coerce.number().min(0).max(1).default(0);

export const SimulatorEnv = z.object({
  SIM_PORT: int(0, 65535).default(8081),
  SIM_SEED: int(0, 2 ** 31).default(20261122),
  SIM_LOADS: int(1, 100_000).default(40),
  SIM_SPEED: z.coerce.number().min(0.01).max(100_000).default(60),
  /** Load 0 gets this many pings (a benchmark's long track); 0 = off. */
  SIM_LONG_TRACK_PINGS: int(0, 1_000_000)
    .refine((n) => n !== 1, 'must be 0 (off) or at least 2')
    .default(0),
  SIM_JWT_SECRET: z.string().min(16, 'must be at least 16 characters').default(DEMO_JWT_SECRET),
  PARTNER_ID: int(0, Number.MAX_SAFE_INTEGER).default(DEMO_PARTNER_ID),
  ACCOUNT_ID: z.string().trim().min(1, 'must not be blank').default(DEMO_ACCOUNT_ID),
  SIM_FAULT_LATENCY_MS: int(0, 600_000).default(0),
  SIM_FAULT_ERROR_RATE: rate,
  SIM_FAULT_429_RATE: rate,
  SIM_FAULT_RETRY_AFTER_S: int(0, 86_400).default(1),
  SIM_FAULT_INVALID_JSON_RATE: rate,
  SIM_FAULT_TRUNCATE_RATE: rate,
  SIM_FAULT_RESET_RATE: rate,
  SIM_FAULT_STATUS_FALSE_RATE: rate,
  SIM_FAULT_SLOW_RATE: rate,
  SIM_FAULT_SLOW_MS: int(0, 600_000).default(30_000),
  SIM_FAULT_OVERSIZE_RATE: rate,
});
export type SimulatorEnv = z.infer<typeof SimulatorEnv>;

export class SimulatorEnvError extends Error {}

/**
 * Parses an environment; an empty value counts as unset. Throws SimulatorEnvError naming each bad
 * variable and saying what is wrong, never echoing a value (ACCOUNT_ID is a credential).
 */
export function parseSimulatorEnv(source: Record<string, string | undefined>): SimulatorEnv {
  const cleaned = Object.fromEntries(
    Object.keys(SimulatorEnv.shape)
      .map((key) => [key, source[key]])
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = SimulatorEnv.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new SimulatorEnvError(`Invalid simulator configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export function faultsFromEnv(env: SimulatorEnv): FaultOptions {
  return {
    latencyMs: env.SIM_FAULT_LATENCY_MS,
    errorRate: env.SIM_FAULT_ERROR_RATE,
    tooManyRequestsRate: env.SIM_FAULT_429_RATE,
    retryAfterSeconds: env.SIM_FAULT_RETRY_AFTER_S,
    invalidJsonRate: env.SIM_FAULT_INVALID_JSON_RATE,
    truncateRate: env.SIM_FAULT_TRUNCATE_RATE,
    resetRate: env.SIM_FAULT_RESET_RATE,
    statusFalseRate: env.SIM_FAULT_STATUS_FALSE_RATE,
    slowRate: env.SIM_FAULT_SLOW_RATE,
    slowMs: env.SIM_FAULT_SLOW_MS,
    oversizeRate: env.SIM_FAULT_OVERSIZE_RATE,
  };
}
