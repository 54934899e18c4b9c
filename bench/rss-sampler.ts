// A process's peak resident set during a part of a bench, sampled from outside (its /proc entry), so
// that a short-lived peak between two after-GC readings is seen and the process does no work for it.
import { readFileSync } from 'node:fs';

/** The resident set in bytes from a /proc/<pid>/status text; NaN when it has no readable VmRSS line. */
export function residentBytesOf(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB\s*$/m.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

/** A process's resident set now (NaN once it has exited, or off Linux). */
export function residentBytesOfPid(pid: number): number {
  try {
    return residentBytesOf(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return NaN;
  }
}

export interface PeakSampler {
  /** Stops sampling; the largest reading since the start (NaN if none was readable). */
  stop: () => number;
}

/** Reads `read` now and every `everyMs` until stopped, keeping the largest reading. */
export function samplePeak(read: () => number, everyMs = 200): PeakSampler {
  let peak = NaN;
  const sample = () => {
    const bytes = read();
    if (Number.isFinite(bytes) && !(bytes <= peak)) peak = bytes;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
