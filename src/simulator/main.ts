import { DEMO_ACCOUNT_ID, DEMO_PARTNER_ID } from './demo';
import { faultsActive, FaultSettings } from './faults';
import { faultsFromEnv, parseSimulatorEnv, SimulatorEnvError, type SimulatorEnv } from './env';
import { startSimulator } from './start';
import { demoToken } from './webhooks';

/** Entry of `npm run simulator`: the upstream simulator alone, on loopback `SIM_PORT`. */
async function main(): Promise<void> {
  let env: SimulatorEnv;
  try {
    env = parseSimulatorEnv(process.env);
  } catch (error) {
    if (error instanceof SimulatorEnvError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const faults = FaultSettings.parse(faultsFromEnv(env));
  const sim = await startSimulator({
    port: env.SIM_PORT,
    seed: env.SIM_SEED,
    loads: env.SIM_LOADS,
    speed: env.SIM_SPEED,
    longTrackPings: env.SIM_LONG_TRACK_PINGS,
    partnerId: env.PARTNER_ID,
    accountId: env.ACCOUNT_ID,
    jwtSecret: env.SIM_JWT_SECRET,
    faults,
  });
  console.log(`Simulator: ${sim.url}`);
  console.log(`  fleet: ${sim.fleet.length} loads (seed ${env.SIM_SEED}, speed ${env.SIM_SPEED}x)`);
  const demoPair = env.PARTNER_ID === DEMO_PARTNER_ID && env.ACCOUNT_ID === DEMO_ACCOUNT_ID;
  console.log(`  pull credentials: ${demoPair ? 'the demo pair' : 'PARTNER_ID and ACCOUNT_ID as set'}`);
  console.log(`  webhook bearer token, valid 24 h: ${await demoToken(env.SIM_JWT_SECRET)}`);
  if (faultsActive(faults)) console.log(`  faults: ${JSON.stringify(faults)}`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
