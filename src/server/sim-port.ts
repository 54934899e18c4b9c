import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo's documents are addressed on the simulator's port, and their reviews are kept by address:
 * the port a demo took is kept in its DATA_DIR so that the next start takes it again.
 */
export const SIM_PORT_FILE = 'simulator-port';

/** The port the last start in `dataDir` took, or undefined (none yet, or a file that is no port). */
export function rememberedSimPort(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, SIM_PORT_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** Keeps `port` for the next start; the reason when it could not be written. */
export function rememberSimPort(dataDir: string, port: number): string | undefined {
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, SIM_PORT_FILE), `${port}\n`);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
