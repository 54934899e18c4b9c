/** One measured figure of `npm run bench`. */
export interface Figure {
  figure: string;
  value: number;
  unit: string;
  goal: string;
  pass: boolean;
  /** The same figure of the peers measured beside it in the same run (bench/map-peers.ts). */
  peers?: { name: string; value: number }[];
}

/**
 * The parts of a bench that the environment variable `variable` names (`BENCH_BROWSER_PARTS=refresh`),
 * in the order of `all`; every part when it is unset. An unknown name stops the bench, naming the parts.
 */
export function chosenParts<P extends string>(variable: string, all: readonly P[]): P[] {
  const text = process.env[variable];
  if (!text) return [...all];
  const named = text.split(',').map((t) => t.trim());
  const unknown = named.filter((t) => !(all as readonly string[]).includes(t));
  if (unknown.length > 0)
    throw new Error(`${variable}: unknown part ${unknown.join(', ')}; the parts are ${all.join(', ')}`);
  return all.filter((p) => named.includes(p));
}
